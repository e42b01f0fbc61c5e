/**
 * The fake upstream's Anthropic Messages API (POST /v1/messages), as Anthropic documents its answers:
 * thinking blocks with signatures, text, tool_use with streamed JSON arguments, usage with cache reads
 * and writes, `ping` events, and errors in Anthropic's shape. Steered by the same FakeBehaviour as the
 * OpenAI side (fakeUpstream.ts), so a test can make it fail, stall, cut a stream or omit usage.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeBehaviour, FakeRequest } from './fakeUpstream.ts';
import { jsonReply } from './jsonReply.ts';

export const FAKE_SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+/Signature/Bytes==';

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error',
};


/** The content blocks of the answer, each as its start and its deltas. */
function blocksOf(b: FakeBehaviour, pieces: readonly string[]): { start: object; deltas: object[]; whole: object }[] {
  const blocks: { start: object; deltas: object[]; whole: object }[] = [];
  if (b.thinking) {
    blocks.push({
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [{ type: 'thinking_delta', thinking: b.thinking }, { type: 'signature_delta', signature: FAKE_SIGNATURE }],
      whole: { type: 'thinking', thinking: b.thinking, signature: FAKE_SIGNATURE },
    });
  }
  if (pieces.length > 0) {
    blocks.push({ start: { type: 'text', text: '' }, deltas: pieces.map((text) => ({ type: 'text_delta', text })), whole: { type: 'text', text: pieces.join('') } });
  }
  if (b.toolCall) {
    const id = b.toolCall.id ?? 'toolu_fake_1';
    const args = b.toolCall.arguments;
    const parts = [args.slice(0, Math.ceil(args.length / 2)), args.slice(Math.ceil(args.length / 2))].filter(Boolean);
    blocks.push({
      start: { type: 'tool_use', id, name: b.toolCall.name, input: {} },
      deltas: parts.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      whole: { type: 'tool_use', id, name: b.toolCall.name, input: JSON.parse(args || '{}') },
    });
  }
  return blocks;
}

export async function answerMessages(record: FakeRequest, b: FakeBehaviour, res: ServerResponse, gone: Promise<void>): Promise<void> {
  if (b.headersDelayMs) await Promise.race([sleep(b.headersDelayMs), gone]);
  if (b.hang === 'headers') return gone;
  if (b.status !== undefined && b.status >= 400) {
    if (b.retryAfter !== undefined) res.setHeader('retry-after', b.retryAfter);
    return jsonReply(res, b.status, { type: 'error', error: { type: ERROR_TYPES[b.status] ?? 'api_error', message: b.errorMessage ?? `fake upstream error ${b.status}` } });
  }
  const body = record.body as { model?: string; stream?: boolean };
  const model = b.answerModel ?? body.model ?? 'fake-claude';
  const pieces = b.pieces ?? (b.toolCall ? [] : Array.from({ length: b.chunks ?? 3 }, (_, i) => (i === 0 ? 'w1' : ` w${i + 1}`)));
  const blocks = blocksOf(b, pieces);
  const output = b.usage?.completion_tokens ?? blocks.reduce((n, block) => n + block.deltas.length, 0);
  const usage = {
    input_tokens: b.usage?.prompt_tokens ?? 11,
    cache_creation_input_tokens: b.cacheWrite ?? 0,
    cache_read_input_tokens: b.cacheRead ?? 0,
    output_tokens: output,
  };
  if (b.hang === 'body') {
    res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
    res.flushHeaders();
    return gone;
  }
  const stopReason = b.toolCall ? 'tool_use' : 'end_turn';
  const id = `msg_fake_${Math.random().toString(36).slice(2)}`;
  if (!body.stream) {
    const answer = { id, type: 'message', role: 'assistant', model, content: blocks.map((block) => block.whole), stop_reason: stopReason, stop_sequence: null };
    return jsonReply(res, 200, b.omitUsage ? answer : { ...answer, usage });
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  let closed = false;
  void gone.then(() => (closed = true));
  const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const startUsage = b.omitUsage ? {} : { usage: { ...usage, output_tokens: 1 } };
  send('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, ...startUsage } });
  send('ping', {});
  let deltas = 0;
  for (const [index, block] of blocks.entries()) {
    send('content_block_start', { index, content_block: block.start });
    for (const delta of block.deltas) {
      if (b.chunkDelayMs) await Promise.race([sleep(b.chunkDelayMs), gone]);
      if (closed) return;
      send('content_block_delta', { index, delta });
      if (b.breakAfter === ++deltas) {
        if (b.breakWith === 'reset') return void res.socket?.resetAndDestroy();
        if (b.breakWith === 'stall') return gone;
        if (b.breakWith === 'error') send('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
        return void res.end();
      }
    }
    send('content_block_stop', { index });
  }
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, ...(b.omitUsage ? {} : { usage: { output_tokens: output } }) });
  if (!b.noDone) send('message_stop', {});
  res.end();
}
