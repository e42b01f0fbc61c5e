// The one SSE decoder both sides use (src/wire/sse.ts), layer by layer and whole. The relay's and the
// client's readings of it are tested in test/unit/relay/sse.test.ts and test/unit/client/sse.test.ts.
import assert from 'node:assert/strict';
import type { SseItem } from '../../../src/contract/index.ts';
import { LineDecoder, SseDecoder, SseLineParser, SseTooLargeError } from '../../../src/wire/sse.ts';
import { splits, decodeAll } from '../../support/sseBytes.ts';

const encoder = new TextEncoder();

function decode(parts: Uint8Array[]): SseItem[] {
  return decodeAll(new SseDecoder(), parts);
}

/** The same bytes through the two separate layers. */
function decodeInLayers(parts: Uint8Array[]): SseItem[] {
  const lines = new LineDecoder();
  const events = new SseLineParser();
  const out: SseItem[] = [];
  for (const line of [...parts.flatMap((p) => lines.decode(p)), ...lines.flush()]) {
    const item = events.line(line);
    if (item) out.push(item);
  }
  const open = events.end();
  if (open) out.push(open);
  return out;
}

describe('SSE decoder', () => {
  it('flags an event the body ended before its blank line, and leaves the choice to the caller', () => {
    for (const chunks of splits(encoder.encode('data: a\n\ndata: {"b":\ndata: 1}'))) {
      assert.deepEqual(decode(chunks), [
        { type: 'event', event: null, data: 'a', id: null, retry: null },
        { type: 'event', event: null, data: '{"b":\n1}', id: null, retry: null, unterminated: true },
      ]);
    }
    assert.deepEqual(decode([encoder.encode('event: x\n')]), [], 'an event type without data is no event');
  });

  it('gives each event the id and retry current when it was dispatched, several events in one chunk', () => {
    const bytes = encoder.encode('id: 1\ndata: a\n\nid: 2\nretry: 50\ndata: b\n\ndata: c\n\nid: bad\0id\nretry: x\ndata: d\n\n');
    for (const chunks of splits(bytes)) {
      assert.deepEqual(
        decode(chunks).map((e) => (e.type === 'event' ? [e.data, e.id, e.retry] : null)),
        [['a', '1', null], ['b', '2', 50], ['c', '2', 50], ['d', '2', 50]],
      );
    }
  });

  it('keeps 2-, 3- and 4-byte characters whole at every cut, and decodes bad bytes as U+FFFD', () => {
    const text = 'data: é€😀𝄞\n\n';
    for (const chunks of splits(encoder.encode(text))) assert.deepEqual(decode(chunks), [{ type: 'event', event: null, data: 'é€😀𝄞', id: null, retry: null }]);
    const bad = Uint8Array.of(...encoder.encode('data: '), 0xff, 0x41, 0xe2, 0x82, ...encoder.encode('\n\ndata: '), 0xf0, 0x9f);
    const expected = [
      { type: 'event', event: null, data: '\ufffdA\ufffd', id: null, retry: null },
      { type: 'event', event: null, data: '\ufffd', id: null, retry: null, unterminated: true },
    ];
    for (const chunks of splits(bad)) assert.deepEqual(decode(chunks), expected);
  });

  it('drops a byte order mark at the start of the stream only', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const bytes = Uint8Array.of(...bom, ...encoder.encode('data: a\n\ndata: '), ...bom, ...encoder.encode('b\n\n'));
    for (const chunks of splits(bytes)) {
      assert.deepEqual(decode(chunks).map((e) => (e.type === 'event' ? e.data : null)), ['a', '\ufeffb']);
    }
  });

  it('reports comments, and gives the same items as the two layers used separately, at every cut', () => {
    const bytes = encoder.encode(': ping\r\n\r\nevent: a\rdata: 1\r\ndata:2\n\n:\n\ndata\n\nid: 9\ndata: [DONE]');
    const expected: SseItem[] = [
      { type: 'comment', text: ' ping' },
      { type: 'event', event: 'a', data: '1\n2', id: null, retry: null },
      { type: 'comment', text: '' },
      { type: 'event', event: null, data: '', id: null, retry: null },
      { type: 'event', event: null, data: '[DONE]', id: '9', retry: null, unterminated: true },
    ];
    for (const chunks of splits(bytes)) {
      assert.deepEqual(decode(chunks), expected);
      assert.deepEqual(decodeInLayers(chunks), expected);
    }
  });

  it('returns an empty, unchangeable list for a chunk that completes nothing', () => {
    const decoder = new SseDecoder();
    const none = decoder.push(encoder.encode('data: x'));
    assert.deepEqual(none, []);
    assert.ok(Object.isFrozen(none));
    assert.deepEqual(decoder.push(encoder.encode('\n\n')), [{ type: 'event', event: null, data: 'x', id: null, retry: null }]);
  });
});

function linesOf(chunks: Uint8Array[]): string[] {
  const decoder = new LineDecoder();
  return [...chunks.flatMap((c) => decoder.decode(c)), ...decoder.flush()];
}

describe('SSE: bytes -> lines', () => {
  it('splits on \\n, \\r\\n and a lone \\r at every cut, keeping multi-byte characters whole', () => {
    const bytes = encoder.encode('a\r\nb\rc\nd\r\r\n你好😀\r\n\r\nend');
    for (const chunks of splits(bytes)) {
      assert.deepEqual(linesOf(chunks), ['a', 'b', 'c', 'd', '', '你好😀', '', 'end']);
    }
  });

  it('treats a \\r at the end of one chunk and \\n at the start of the next as one line break', () => {
    const decoder = new LineDecoder();
    assert.deepEqual(decoder.decode(encoder.encode('one\r')), ['one']);
    assert.deepEqual(decoder.decode(encoder.encode('\ntwo\r')), ['two']);
    assert.deepEqual(decoder.decode(encoder.encode('\r')), ['']);
    assert.deepEqual(decoder.flush(), []);
  });

  it('keeps a \\r pending across an empty chunk, and a character split across chunks whole', () => {
    const bytes = encoder.encode('x\r\n€');
    const decoder = new LineDecoder();
    assert.deepEqual(decoder.decode(bytes.subarray(0, 2)), ['x']);
    assert.deepEqual(decoder.decode(Uint8Array.of()), []);
    assert.deepEqual(decoder.decode(bytes.subarray(2, 4)), []);
    assert.deepEqual(decoder.decode(bytes.subarray(4)), []);
    assert.deepEqual(decoder.flush(), ['€']);
  });
});

describe('SSE: lines -> events', () => {
  it('joins multi-line data, reads event, id and retry, and reports comments', () => {
    const decoder = new SseLineParser();
    const lines = [': keep-alive', 'event: update', 'id: 7', 'retry: 1500', 'data: first', 'data:second', 'data', '', 'data: next', ''];
    const events = lines.map((l) => decoder.line(l)).filter((e) => e !== null);
    assert.deepEqual(events, [
      { type: 'comment', text: ' keep-alive' },
      { type: 'event', event: 'update', data: 'first\nsecond\n', id: '7', retry: 1500 },
      { type: 'event', event: null, data: 'next', id: '7', retry: 1500 },
    ]);
  });

  it('dispatches nothing for a blank line without data', () => {
    const decoder = new SseLineParser();
    assert.equal(decoder.line('event: ping'), null);
    assert.equal(decoder.line(''), null);
    assert.equal(decoder.line('data: x'), null);
    assert.deepEqual(decoder.line(''), { type: 'event', event: null, data: 'x', id: null, retry: null });
  });
});

describe('SseDecoder limits', () => {
  it('an endless line or an event past the limit throws SseTooLargeError instead of growing', () => {
    const decoder = new SseDecoder(100);
    assert.deepEqual(decoder.push(new TextEncoder().encode('data: short\n\n')).map((i) => (i.type === 'event' ? i.data : '')), ['short']);
    assert.throws(() => decoder.push(new TextEncoder().encode(`data: ${'x'.repeat(200)}`)), SseTooLargeError);
    const many = new SseDecoder(100);
    assert.throws(() => many.push(new TextEncoder().encode(Array.from({ length: 10 }, () => `data: ${'y'.repeat(30)}\n`).join(''))), SseTooLargeError);
  });
});
