import { describe, expect, it } from 'vitest';
import { localPath } from '../../src/pages/account-routes.js';
import { KEYS_PAGE_PATH } from '../../src/pages/settings-keys-page.js';

describe('where a sign-in goes back to (GET /auth/sign-in?return=)', () => {
  it.each([
    '/new',
    '/new?remix=abc',
    '/@ada',
    '/settings/keys',
  ])('goes back to a path of this site: %s', (path) => {
    expect(localPath(path)).toBe(path);
  });

  it.each([
    '//evil.example',
    '//evil.example/new',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/\tevil',
    ' /new',
    'new',
    '',
    undefined,
    ['/new', '//evil.example'],
  ])('never leaves the site: %j goes to the keys page', (value) => {
    expect(localPath(value)).toBe(KEYS_PAGE_PATH);
  });
});
