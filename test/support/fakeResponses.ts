/**
 * The fake upstream's OpenAI Responses API (POST /v1/responses), for channels whose upstream has it:
 * a reasoning item with encrypted content (which must come back untouched), the message or a
 * function call, usage with cached and reasoning tokens, and the documented event sequence ending
 * with response.completed. Steered by the same FakeBehaviour as the other fake APIs (fakeUpstream.ts).
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FakeBehaviour, FakeRequest } from './fakeUpstream.ts';
import { jsonReply } from './jsonReply.ts';

export const FAKE_ENCRYPTED_REASONING = 'gAAAAABo-Fake+Encrypted/Reasoning==';


type Json = Record<string, unknown>;

export async function answerResponses(record: FakeRequest, b: FakeBehaviour, res: ServerResponse, gone: Promise<void>): Promise<void> {
  if (b.headersDelayMs) await Promise.race([sleep(b.headersDelayMs), gone]);
  if (b.hang === 'headers') return gone;
  if (b.status !== undefined && b.status >= 400) {
    if (b.retryAfter !== undefined) res.setHeader('retry-after', b.retryAfter);
    return jsonReply(res, b.status, { error: { message: b.errorMessage ?? `fake upstream error ${b.status}`, type: b.status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } });
  }
  const body = record.body as { model?: string; stream?: boolean };
  const model = b.answerModel ?? body.model ?? 'fake-model';
  const pieces = b.pieces ?? (b.toolCall ? [] : Array.from({ length: b.chunks ?? 3 }, (_, i) => (i === 0 ? 'w1' : ` w${i + 1}`)));
  const id = `resp_fake_${Math.random().toString(36).slice(2)}`;
  const reasoning = { id: 'rs_fake_1', type: 'reasoning', summary: [], encrypted_content: FAKE_ENCRYPTED_REASONING };
  const text = pieces.join('');
  const final: Json = b.toolCall
    ? { id: 'fc_fake_1', type: 'function_call', status: 'completed', call_id: b.toolCall.id ?? 'call_fake_1', name: b.toolCall.name, arguments: b.toolCall.arguments, ...(b.toolCall.namespace ? { namespace: b.toolCall.namespace } : {}) }
    : { id: 'msg_fake_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
  const output = (b.usage?.completion_tokens ?? pieces.length) + 2;
  const input = b.usage?.prompt_tokens ?? 11;
  const usage = {
    input_tokens: input, input_tokens_details: { cached_tokens: b.cacheRead ?? 0 },
    output_tokens: output, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: input + output,
  };
  const envelope = (status: string, items: Json[], withUsage: boolean): Json => ({
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output: items, ...(withUsage && !b.omitUsage ? { usage } : { usage: null }),
  });
  if (!body.stream) return jsonReply(res, 200, envelope('completed', [reasoning, final], true));

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  if (b.hang === 'body') return gone;
  let closed = false;
  void gone.then(() => (closed = true));
  let sequence = 0;
  const send = (type: string, data: Json) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  send('response.created', { response: envelope('in_progress', [], false) });
  send('response.in_progress', { response: envelope('in_progress', [], false) });
  send('response.output_item.added', { output_index: 0, item: { ...reasoning, encrypted_content: null } });
  send('response.output_item.done', { output_index: 0, item: reasoning });
  send('response.output_item.added', { output_index: 1, item: b.toolCall ? { ...final, arguments: '' } : { ...final, status: 'in_progress', content: [] } });
  const at = { item_id: final['id'], output_index: 1 };
  const deltas = b.toolCall ? [b.toolCall.arguments.slice(0, 5), b.toolCall.arguments.slice(5)] : pieces;
  if (!b.toolCall) send('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  for (const [i, delta] of deltas.entries()) {
    if (b.chunkDelayMs) await Promise.race([sleep(b.chunkDelayMs), gone]);
    if (closed) return;
    if (b.toolCall) send('response.function_call_arguments.delta', { ...at, delta });
    else send('response.output_text.delta', { ...at, content_index: 0, delta });
    if (b.breakAfter === i + 1) {
      if (b.breakWith === 'reset') return void res.socket?.resetAndDestroy();
      if (b.breakWith === 'stall') return gone;
      if (b.breakWith === 'error') send('error', { code: 'server_error', message: 'fake upstream failed mid-stream', param: null });
      return void res.end();
    }
  }
  if (b.toolCall) send('response.function_call_arguments.done', { ...at, arguments: b.toolCall.arguments });
  else {
    send('response.output_text.done', { ...at, content_index: 0, text });
    send('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
  }
  send('response.output_item.done', { output_index: 1, item: final });
  if (!b.noDone) send('response.completed', { response: envelope('completed', [reasoning, final], true) });
  res.end();
}
