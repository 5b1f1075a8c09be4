import { describe, expect, it } from 'vitest';
import { routePaths } from '../../src/http/routes/index.js';
import { createRouteLabeler } from '../../src/metrics.js';

describe('metrics route labels', () => {
  const label = createRouteLabeler(routePaths());

  it('labels a path with a {parameter} by its pattern, so codes cannot multiply the series', () => {
    expect(label('/api/items/k7x')).toBe('/api/items/{code}');
    expect(label('/api/items/clock~bako?x=1')).toBe('/api/items/{code}');
    expect(label('/api/items/a/b')).toBe('/api/other');
    expect(label('/api/items/')).toBe('/api/other');
  });

  it('keeps exact paths exact', () => {
    expect(label('/api/store-kidlisp?code=k7x')).toBe('/api/store-kidlisp');
    expect(label('/k7x')).toBe('page');
  });
});
