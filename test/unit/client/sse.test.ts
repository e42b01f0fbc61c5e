// SSE decoding over recorded byte streams, fed split at every byte position (inside lines,
// inside multi-byte UTF-8 characters, between \r and \n) and one byte at a time.
import assert from 'node:assert/strict';
import { chatChunks, sseEvents } from '../../../src/client/sse.ts';
import type { SseEvent } from '../../../src/client/sse.ts';
import { GatewayError, InvalidResponseError, ServerError } from '../../../src/client/errors.ts';
import type { ChatCompletionChunk } from '../../../src/contract/index.ts';
import { splits } from '../../support/sseBytes.ts';

const encoder = new TextEncoder();

async function* fromChunks(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function collectEvents(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(fromChunks(chunks))) events.push(event);
  return events;
}

async function collectChunks(chunks: Uint8Array[]): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const chunk of chatChunks(fromChunks(chunks))) out.push(chunk);
  return out;
}

async function failure(chunks: Uint8Array[]): Promise<unknown> {
  try {
    await collectChunks(chunks);
  } catch (error) {
    return error;
  }
  assert.fail('the stream should have thrown');
}

const RECORDED = [
  ': OPENROUTER PROCESSING\r\n\r\n',
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"想一想…"}}]}\r\n\r\n',
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning":"🤔 ok"}}]}\n\n',
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"你好，世界 😀"}}]}\r\r',
  'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],\n',
  'data: "usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}\n\n',
  'data: [DONE]\n\n',
].join('');

describe('client SSE: bytes -> events', () => {
  it('gives the same events at every split of a stream with comments, ids, retry and CRLF', async () => {
    const bytes = encoder.encode(': hi\r\nid: 1\r\nretry: 10\r\nevent: a\r\ndata: α\r\ndata: β\r\n\r\n:\rdata: 😀\r\r');
    for (const chunks of splits(bytes)) {
      assert.deepEqual(await collectEvents(chunks), [
        { event: 'a', data: 'α\nβ', id: '1', retry: 10 },
        { event: null, data: '😀', id: '1', retry: 10 },
      ]);
    }
  });
});

describe('client SSE: events -> chat chunks', () => {
  it('decodes a recorded stream identically at every split, keeping reasoning fields', async () => {
    for (const chunks of splits(encoder.encode(RECORDED))) {
      const out = await collectChunks(chunks);
      assert.equal(out.length, 4);
      assert.equal(out[0]!.choices[0]!.delta!.reasoning_content, '想一想…');
      assert.equal(out[1]!.choices[0]!.delta!.reasoning, '🤔 ok');
      assert.equal(out[2]!.choices[0]!.delta!.content, '你好，世界 😀');
      assert.equal(out[3]!.choices[0]!.finish_reason, 'stop');
      assert.equal(out[3]!.usage!.total_tokens, 8);
    }
  });

  it('stops at [DONE] even when more follows, and accepts a final [DONE] without a blank line', async () => {
    assert.equal((await collectChunks([encoder.encode('data: [DONE]\n\ndata: not json\n\n')])).length, 0);
    assert.equal((await collectChunks([encoder.encode('data: {"choices":[]}\n\ndata: [DONE]')])).length, 1);
  });

  it('throws when the stream ends without [DONE]', async () => {
    const bytes = encoder.encode(RECORDED.slice(0, RECORDED.indexOf('data: [DONE]')));
    for (const chunks of splits(bytes).slice(0, 40)) {
      const error = await failure(chunks);
      assert.ok(error instanceof ServerError);
      assert.equal(error.code, 'stream_truncated');
    }
  });

  it('throws on malformed JSON instead of dropping it', async () => {
    const error = await failure([encoder.encode('data: {"choices":[]}\n\ndata: {"choices":[\n\ndata: [DONE]\n\n')]);
    assert.ok(error instanceof InvalidResponseError);
    assert.equal(error.code, 'malformed_json');
  });

  it('throws on JSON that is not a chunk', async () => {
    const error = await failure([encoder.encode('data: {"hello":"world"}\n\ndata: [DONE]\n\n')]);
    assert.ok(error instanceof InvalidResponseError);
    assert.equal(error.code, 'unexpected_shape');
  });

  it('turns a data payload with an error field into the typed error, at every split', async () => {
    const bytes = encoder.encode('data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"该令牌额度已用尽","type":"new_api_error"}}\n\n');
    for (const chunks of splits(bytes)) {
      const error = await failure(chunks);
      assert.ok(error instanceof GatewayError);
      assert.equal(error.family, 'permission');
      assert.equal(error.condition, 'insufficient_balance');
    }
  });

  it('turns an SSE error event into the typed error', async () => {
    const error = await failure([encoder.encode('event: error\ndata: {"error":{"message":"Too many requests","type":"model_gateway_error","code":"rate_limited"}}\n\n')]);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.family, 'rate_limit');
    assert.equal(error.code, 'rate_limited');
    const plain = await failure([encoder.encode('event: error\ndata: upstream went away\n\n')]);
    assert.ok(plain instanceof GatewayError);
    assert.equal(plain.family, 'server');
  });
});
