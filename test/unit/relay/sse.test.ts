// The relay reads upstream streams with the one decoder (src/wire/sse.ts) and its own end-of-body rule
// (closedItems): the same events however the bytes are cut.
import assert from 'node:assert/strict';
import type { SseItem } from '../../../src/contract/index.ts';
import { SseDecoder } from '../../../src/wire/sse.ts';
import { closedItems } from '../../../src/gateway/relay/sse.ts';
import { decodeAll } from '../../support/sseBytes.ts';

/** An event item as the decoder reports it: the stream's last id and retry ride along (null until set). */
function ev(event: string | null, data: string, id: string | null = null, retry: number | null = null): SseItem {
  return { type: 'event', event, data, id, retry };
}

/** What the relay reads: every item, with its end-of-body rule applied to what the end completes. */
function decode(parts: Uint8Array[]): SseItem[] {
  const decoder = new SseDecoder();
  return [...decodeAll({ push: (chunk) => decoder.push(chunk), end: () => [] }, parts), ...closedItems(decoder.end())];
}

const stream = [
  ': keep-alive\n\n',
  'data: {"choices":[{"delta":{"content":"héllo 世界"}}]}\r\n\r\n',
  'event: ping\ndata: {"a":1}\n\n',
  'data: line one\ndata: line two\r\r',
  'data:no-space 👋🏽\n\n',
  'id: 7\nretry: 100\ndata: [DONE]\n\n',
].join('');
const bytes = new TextEncoder().encode(stream);

const expected: SseItem[] = [
  { type: 'comment', text: ' keep-alive' },
  ev(null, '{"choices":[{"delta":{"content":"héllo 世界"}}]}'),
  ev('ping', '{"a":1}'),
  ev(null, 'line one\nline two'),
  ev(null, 'no-space 👋🏽'),
  ev(null, '[DONE]', '7', 100),
];

describe('relay SSE reading', () => {
  it('decodes a whole stream', () => {
    assert.deepEqual(decode([bytes]), expected);
  });

  it('gives the same events when cut at every byte position', () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      assert.deepEqual(decode([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at byte ${cut}`);
    }
  });

  it('gives the same events when cut at every pair of positions', () => {
    for (let a = 1; a < bytes.length; a += 3) {
      for (let b = a; b < bytes.length; b += 5) {
        assert.deepEqual(decode([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]), expected, `cuts at ${a}, ${b}`);
      }
    }
  });

  it('gives the same events fed one byte at a time', () => {
    assert.deepEqual(decode([...bytes].map((b) => Uint8Array.of(b))), expected);
  });

  it('emits an event as soon as its blank line arrives, not later', () => {
    const decoder = new SseDecoder();
    const enc = new TextEncoder();
    assert.deepEqual(decoder.push(enc.encode('data: 1\n')), []);
    assert.deepEqual(decoder.push(enc.encode('\n')), [ev(null, '1')]);
    // A lone \r at the end of a chunk already ends the line; the \n that may follow is not a second one.
    assert.deepEqual(decoder.push(enc.encode('data: 2\r')), []);
    assert.deepEqual(decoder.push(enc.encode('\r')), [ev(null, '2')]);
    assert.deepEqual(decoder.push(enc.encode('\ndata: 3\r\n\r\n')), [ev(null, '3')]);
  });

  it('discards an event cut off by the end of the body, except a bare final [DONE]', () => {
    const enc = new TextEncoder();
    assert.deepEqual(decode([enc.encode('data: {"partial":')]), []);
    assert.deepEqual(decode([enc.encode('data: {"whole":1}\n')]), []);
    assert.deepEqual(decode([enc.encode('data: [DONE]')]), [ev(null, '[DONE]')]);
    assert.deepEqual(decode([enc.encode('data: [DONE]\n')]), [ev(null, '[DONE]')]);
  });
});
