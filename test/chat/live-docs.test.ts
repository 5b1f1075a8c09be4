import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiInfo } from '../../src/docs/api-info.js';
import { openapiDocument } from '../../src/docs/openapi.js';

const config = { publicUrl: 'https://gateway.example', graphiql: true };

describe('the live chat in the docs', () => {
  it('is a route of OpenAPI answering text/event-stream, with its filters and limits', () => {
    const document = openapiDocument(config) as any;
    const stream = document.paths['/api/chat-messages/stream'].get;
    expect(Object.keys(stream.responses['200'].content)).toEqual(['text/event-stream']);
    expect(stream.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
      'after',
      'from',
      'instance',
      'search',
    ]);
    expect(Object.keys(stream.responses)).toEqual(expect.arrayContaining(['400', '429', '503']));
  });

  it('is in the docs object: the endpoint, the subscriptions and the page', () => {
    const info = apiInfo(config);
    expect(info.endpoints.map((endpoint) => endpoint.path)).toContain('/api/chat-messages/stream');
    expect(info.graphql.subscriptions).toMatch(
      /chatMessageAdded.*chatMessageRemoved.*text\/event-stream/,
    );
    expect(info.relatedResources).toContainEqual({
      name: 'Live chat page',
      url: 'https://gateway.example/chat',
    });
  });

  it('is in the committed schema.graphql', () => {
    const sdl = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(sdl).toMatch(/chatMessageAdded\([\s\S]*\): ChatMessage!/);
    expect(sdl).toMatch(/chatMessageRemoved\([\s\S]*\): ChatMessageRemoval!/);
  });
});
