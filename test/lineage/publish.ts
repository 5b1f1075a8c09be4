import { expect } from 'vitest';
import type { HttpClient } from '../support/http-client.js';

/** Publishes over REST and answers the new item's code (a 201 is expected). */
export const publisher =
  (http: () => HttpClient) =>
  async (path: string, body: object): Promise<string> => {
    const answer = await http().post(path, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.json.code as string;
  };
