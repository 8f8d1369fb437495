import { describe, expect, it } from 'vitest';
import { socketUrl } from './live.js';

describe('socketUrl', () => {
  it.each([
    [{ protocol: 'http:', host: 'h:8080' }, 'T1', null, 'all', 'ws://h:8080/api/v1/tables/T1/ws'],
    [{ protocol: 'https:', host: 'h' }, 'T1', 42, 'all', 'wss://h/api/v1/tables/T1/ws?after=42'],
    [
      { protocol: 'https:', host: 'h' },
      'A B',
      null,
      'summary',
      'wss://h/api/v1/tables/A%20B/ws?feed=summary',
    ],
    [
      { protocol: 'http:', host: 'h' },
      'T1',
      7,
      'summary',
      'ws://h/api/v1/tables/T1/ws?after=7&feed=summary',
    ],
  ] as const)('%o %s after %s on %s → %s', (loc, table, after, feed, url) => {
    expect(socketUrl(loc, table, after, feed)).toBe(url);
  });
});
