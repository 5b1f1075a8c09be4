import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { parseIsoTimestamp } from '../../src/domain/iso-time.js';
import { decodeChatCursor, encodeChatCursor } from '../../src/operations/chat/cursor.js';
import { chatConnectionInput, listChatMessagesInput } from '../../src/operations/chat/inputs.js';
import { escapeRegExp } from '../../src/operations/chat/read-window.js';
import { parseInput } from '../../src/operations/validation.js';

describe('parseIsoTimestamp', () => {
  it.each([
    ['2026-04-20', '2026-04-20T00:00:00.000Z'],
    ['2026-04-20T10:11:12Z', '2026-04-20T10:11:12.000Z'],
    ['2026-04-20T10:11:12.345678+02:00', '2026-04-20T08:11:12.345Z'],
    ['2026-04-20T10:11', '2026-04-20T10:11:00.000Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseIsoTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([
    'yesterday',
    '2026-02-30',
    '2026-13-01',
    '2026-04-20T24:00:00Z',
    '2026-04-20T10:11:12+25:00',
    '1700000000000',
    '',
  ])('refuses %j', (text) => {
    expect(parseIsoTimestamp(text)).toBeUndefined();
  });
});

describe('chat cursors', () => {
  it('round-trip a position and refuse anything else', () => {
    const position = { when: new Date('2026-04-20T10:11:12.345Z'), id: new ObjectId() };
    expect(decodeChatCursor(encodeChatCursor(position))).toEqual(position);
    expect(decodeChatCursor('')).toBeUndefined();
    expect(
      decodeChatCursor(Buffer.from(`chat:1:${'g'.repeat(24)}`).toString('base64url')),
    ).toBeUndefined();
  });
});

describe('listChatMessagesInput', () => {
  it('fills the defaults and normalises the values', () => {
    expect(parseInput(listChatMessagesInput, {})).toEqual({ instance: 'system', limit: 50 });
    expect(
      parseInput(listChatMessagesInput, {
        instance: '',
        limit: '',
        before: '',
        search: '  ',
        from: '',
      }),
    ).toEqual({ instance: 'system', limit: 50 });
    expect(
      parseInput(listChatMessagesInput, {
        limit: ' 7 ',
        q: ' Hi ',
        from: '@alice',
        before: '2026-01-01',
      }),
    ).toEqual({
      instance: 'system',
      limit: 7,
      search: 'Hi',
      from: 'alice',
      before: new Date('2026-01-01T00:00:00Z'),
    });
  });
});

describe('chatConnectionInput', () => {
  it('decodes cursors and refuses an undecodable one with CURSOR_INVALID', () => {
    const position = { when: new Date(), id: new ObjectId() };
    expect(
      parseInput(chatConnectionInput, { after: encodeChatCursor(position), first: 5 }).after,
    ).toEqual(position);
    expect(() => parseInput(chatConnectionInput, { before: 'bogus' })).toThrow(
      expect.objectContaining({ code: 'CURSOR_INVALID' }),
    );
  });
});

describe('escapeRegExp', () => {
  it('makes every metacharacter literal', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(escapeRegExp(text)).test(text)).toBe(true);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});
