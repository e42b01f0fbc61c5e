/**
 * A fake upstream on 127.0.0.1, port 0, standing for the providers the tests cannot reach: OpenAI-style
 * (POST /v1/chat/completions, /v1/completions, /v1/embeddings, /v1/images/generations, GET /v1/models)
 * Anthropic-style (POST /v1/messages, fakeMessages.ts) and OpenAI Responses (POST /v1/responses, fakeResponses.ts).
 *
 * What it does is a `FakeBehaviour`, merged from (later wins):
 *   1. the `behaviour` given to `startFakeUpstream` (an object, or a function of the request,
 *      for example to answer per model name), changeable later through `fake.behaviour`;
 *   2. a JSON object in the request header `x-fake`;
 *   3. a JSON object in the body field `x_fake` (a gateway passes unknown body fields
 *      through untouched, so a test can steer one request from the client side).
 * Every request is recorded, with its parsed body and a promise telling whether the
 * upstream finished answering or saw the connection closed first.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { answerMessages } from './fakeMessages.ts';
import { answerResponses } from './fakeResponses.ts';
import { jsonReply } from './jsonReply.ts';
import { listenOnLoopback } from './loopback.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FakeBehaviour {
  /** Answer with this error status (500, 503, 429, 400, ...) and an OpenAI-style error body. */
  readonly status?: number;
  readonly errorMessage?: string;
  /** Retry-After header value sent with `status`. */
  readonly retryAfter?: string;
  /** The generated text, one piece per stream chunk (default `chunks` pieces "w1", " w2", ...). */
  readonly pieces?: readonly string[];
  readonly chunks?: number;
  /** Delay before each stream chunk. */
  readonly chunkDelayMs?: number;
  /** Delay before the response headers. */
  readonly headersDelayMs?: number;
  /** Never answer ('headers'), or send headers and then nothing ('body'), until the connection closes. */
  readonly hang?: 'headers' | 'body';
  /** After this many content chunks, break the stream as `breakWith` says. */
  readonly breakAfter?: number;
  /** 'reset': TCP reset; 'end': end without finish chunk or [DONE]; 'stall': go silent; 'error': an SSE error event, then end. */
  readonly breakWith?: 'reset' | 'end' | 'stall' | 'error';
  /** End a complete stream without the final [DONE]. */
  readonly noDone?: boolean;
  /** Send no usage at all (no usage chunk, no usage in JSON answers). */
  readonly omitUsage?: boolean;
  /** The usage reported; other fields (details, DeepSeek's prompt_cache_hit_tokens) go as they are. */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly [field: string]: unknown };
  /** Answer with this `model` instead of the requested one (OpenAI answers with dated names). */
  readonly answerModel?: string;
  /** Before each content chunk after the first (and before a `breakWith`), wait for `fake.release()`. */
  readonly gated?: boolean;
  /** Line ending of the SSE stream (default "\n"). */
  readonly eol?: '\n' | '\r\n';
  /** Send a ": keep-alive" comment before every chunk. */
  readonly comments?: boolean;
  /** Write every stream event in fragments of this many bytes (splits lines and UTF-8 characters). */
  readonly fragmentBytes?: number;
  /**
   * Answer with a call of this tool (its arguments a JSON text, streamed in two pieces) instead of text. Chat only:
   * `asObject` sends the arguments parsed, as an object, in one piece (some Ollama and llama.cpp builds do);
   * `finishReason` replaces "tool_calls" (Gemini says "stop").
   */
  readonly toolCall?: {
    readonly id?: string; readonly name: string; readonly arguments: string; readonly namespace?: string;
    readonly asObject?: boolean; readonly finishReason?: string;
  };
  /** Messages only: a thinking block with this text (and a signature) before the answer. */
  readonly thinking?: string;
  /** Messages and Responses: cache reads (and Messages cache writes) in the usage. */
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  /** Embeddings: always answered in this encoding, whatever was asked (as some servers do); else floats. */
  readonly embeddingsAs?: 'float' | 'base64';
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text if it was not JSON). */
  readonly body: any;
  /** The body's text as it came. */
  readonly raw: string;
  /** The answer's body as the fake wrote it so far. */
  answered(): string;
  /** 'complete' once the answer was fully written; 'aborted' if the connection closed first. */
  readonly closed: Promise<'complete' | 'aborted'>;
  /** The client's port: requests on one kept-alive connection share it. */
  readonly remotePort: number | undefined;
}

export interface FakeUpstream {
  /** OpenAI-style base URL, including /v1. */
  readonly url: string;
  readonly requests: FakeRequest[];
  behaviour: FakeBehaviour | ((request: FakeRequest) => FakeBehaviour);
  /** Lets `count` gated chunks go (see `gated`). */
  release(count?: number): void;
  /** Resolves once `count` requests have arrived in total. */
  received(count: number): Promise<FakeRequest>;
  /** Connections open now. */
  openConnections(): number;
  close(): Promise<void>;
}

export const FAKE_PROMPT_TOKENS = 11;

export async function startFakeUpstream(behaviour: FakeUpstream['behaviour'] = {}): Promise<FakeUpstream> {
  const requests: FakeRequest[] = [];
  let permits = 0;
  const gateWaiters: Array<() => void> = [];
  const requestWaiters: Array<{ count: number; resolve: (r: FakeRequest) => void }> = [];
  const gate = (): Promise<void> => {
    if (permits > 0) {
      permits--;
      return Promise.resolve();
    }
    return new Promise((resolve) => gateWaiters.push(resolve));
  };

  const server = createServer(async (req, res) => {
    const received: Buffer[] = [];
    for await (const chunk of req) received.push(chunk as Buffer);
    // Decoded whole: a multi-byte character may straddle two chunks.
    const raw = Buffer.concat(received).toString();
    let body: any = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // Recorded as text.
    }
    const closed = new Promise<'complete' | 'aborted'>((resolve) => res.on('close', () => resolve(res.writableFinished ? 'complete' : 'aborted')));
    const written: Buffer[] = [];
    const write = res.write.bind(res) as (chunk: unknown) => boolean;
    res.write = ((chunk: string | Uint8Array) => {
      written.push(Buffer.from(chunk));
      return write(chunk);
    }) as typeof res.write;
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: string | Uint8Array) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) written.push(Buffer.from(chunk));
      return end(chunk);
    }) as typeof res.end;
    const record: FakeRequest = {
      method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw, closed, remotePort: req.socket.remotePort,
      answered: () => Buffer.concat(written).toString(),
    };
    requests.push(record);
    for (const w of requestWaiters.filter((w) => requests.length >= w.count)) {
      requestWaiters.splice(requestWaiters.indexOf(w), 1);
      w.resolve(record);
    }
    const gone = new Promise<void>((resolve) => res.on('close', resolve));
    const base = typeof fake.behaviour === 'function' ? fake.behaviour(record) : fake.behaviour;
    const b: FakeBehaviour = { ...base, ...parseJson(req.headers['x-fake']), ...(body && typeof body === 'object' ? body.x_fake : undefined) };
    try {
      await answer(record, b, res, gone, gate);
    } catch {
      res.destroy();
    }
  });
  const listening = await listenOnLoopback(server);

  const fake: FakeUpstream = {
    url: `${listening.origin}/v1`,
    requests,
    behaviour,
    release(count = 1) {
      for (let i = 0; i < count; i++) {
        const waiter = gateWaiters.shift();
        if (waiter) waiter();
        else permits++;
      }
    },
    openConnections: listening.openConnections,
    received(count) {
      if (requests.length >= count) return Promise.resolve(requests[count - 1]!);
      return new Promise((resolve) => requestWaiters.push({ count, resolve }));
    },
    close: listening.close,
  };
  return fake;
}

function parseJson(value: string | string[] | undefined): object | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value) as object;
  } catch {
    return undefined;
  }
}

async function answer(record: FakeRequest, b: FakeBehaviour, res: ServerResponse, gone: Promise<void>, gate: () => Promise<void>): Promise<void> {
  if (record.method === 'GET' && record.path.startsWith('/v1/models')) {
    return jsonReply(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] });
  }
  if (record.method === 'POST' && record.path.split('?')[0] === '/v1/messages') return answerMessages(record, b, res, gone);
  if (record.method === 'POST' && record.path.split('?')[0] === '/v1/responses') return answerResponses(record, b, res, gone);
  const operation = record.method === 'POST' ? OPERATIONS[record.path.split('?')[0]!] : undefined;
  if (!operation) {
    return jsonReply(res, 404, { error: { message: `no route ${record.method} ${record.path}`, type: 'invalid_request_error', code: null } });
  }
  if (b.headersDelayMs) await Promise.race([sleep(b.headersDelayMs), gone]);
  if (b.hang === 'headers') return gone;
  if (b.status !== undefined && b.status >= 400) {
    if (b.retryAfter !== undefined) res.setHeader('retry-after', b.retryAfter);
    const type = b.status === 429 ? 'rate_limit_error' : b.status >= 500 ? 'server_error' : 'invalid_request_error';
    return jsonReply(res, b.status, { error: { message: b.errorMessage ?? `fake upstream error ${b.status}`, type, param: null, code: null } });
  }
  const body = record.body as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean }; input?: unknown; n?: number };
  const model = b.answerModel ?? body.model ?? 'fake-model';
  if (operation === 'embedding') {
    const inputs = Array.isArray(body.input) && typeof body.input[0] !== 'number' ? body.input.length : 1;
    const vector = b.embeddingsAs === 'base64' ? Buffer.from(Float32Array.from([0.25, -0.5, 0.75]).buffer).toString('base64') : [0.25, -0.5, 0.75];
    const data = Array.from({ length: inputs }, (_, index) => ({ object: 'embedding', index, embedding: vector }));
    return jsonReply(res, 200, { object: 'list', data, model, ...(b.omitUsage ? {} : { usage: { prompt_tokens: FAKE_PROMPT_TOKENS, total_tokens: FAKE_PROMPT_TOKENS } }) });
  }
  if (operation === 'image') {
    return jsonReply(res, 200, { created: Math.floor(Date.now() / 1000), data: Array.from({ length: body.n ?? 1 }, () => ({ b64_json: FAKE_IMAGE_B64 })) });
  }
  if (b.toolCall && operation === 'chat') return answerToolCall(body, b.toolCall, model, res, b.usage);
  const text = operation === 'completion';
  const pieces = b.pieces ?? Array.from({ length: b.chunks ?? 3 }, (_, i) => (i === 0 ? 'w1' : ` w${i + 1}`));
  const usage = b.omitUsage ? undefined : { ...(b.usage ?? { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: pieces.length }) };
  const id = `chatcmpl-fake-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  if (!body.stream) {
    const choice = text ? { index: 0, text: pieces.join(''), logprobs: null, finish_reason: 'stop' } : { index: 0, message: { role: 'assistant', content: pieces.join('') }, finish_reason: 'stop' };
    const answerBody = { id, object: text ? 'text_completion' : 'chat.completion', created, model, choices: [choice] };
    return jsonReply(res, 200, usage ? { ...answerBody, usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : answerBody);
  }

  const eol = b.eol ?? '\n';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  if (b.hang === 'body') return gone;
  const send = async (payload: string) => {
    const text = `${b.comments ? `: keep-alive${eol}${eol}` : ''}data: ${payload}${eol}${eol}`;
    if (!b.fragmentBytes) return void res.write(text);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += b.fragmentBytes) {
      res.write(bytes.subarray(at, at + b.fragmentBytes));
      await sleep(1);
    }
  };
  const chunk = (delta: { role?: string; content?: string }, finish: string | null = null) =>
    text
      ? JSON.stringify({ id, object: 'text_completion', created, model, choices: [{ index: 0, text: delta.content ?? '', logprobs: null, finish_reason: finish }] })
      : JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  let closed = false;
  void gone.then(() => (closed = true));
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && b.gated) await Promise.race([gate(), gone]);
    if (b.chunkDelayMs) await Promise.race([sleep(b.chunkDelayMs), gone]);
    if (closed) return;
    await send(chunk(i === 0 ? { role: 'assistant', content: pieces[i] } : { content: pieces[i] }));
    if (b.breakAfter === i + 1) {
      if (b.gated) await Promise.race([gate(), gone]);
      if (b.breakWith === 'reset') return void res.socket?.resetAndDestroy();
      if (b.breakWith === 'stall') return gone;
      if (b.breakWith === 'error') await send(JSON.stringify({ error: { message: 'fake upstream failed mid-stream', type: 'server_error', code: null } }));
      return void res.end();
    }
  }
  await send(chunk({}, 'stop'));
  if (usage && body.stream_options?.include_usage) {
    await send(JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
  }
  if (!b.noDone) await send('[DONE]');
  res.end();
}

/** A chat answer that calls a tool: whole, or streamed with its arguments in two pieces. */
function answerToolCall(body: { stream?: boolean }, call: NonNullable<FakeBehaviour['toolCall']>, model: string, res: ServerResponse, reported?: FakeBehaviour['usage']): void {
  const id = call.id ?? 'call_fake_1';
  const base = { id: 'chatcmpl-fake-tool', created: Math.floor(Date.now() / 1000), model };
  const counts = reported ?? { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: 2 };
  const usage = { ...counts, total_tokens: counts.prompt_tokens + counts.completion_tokens };
  const finish = call.finishReason ?? 'tool_calls';
  const args: unknown = call.asObject ? JSON.parse(call.arguments) : call.arguments;
  if (!body.stream) {
    const message = { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: call.name, arguments: args } }] };
    return jsonReply(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const half = Math.ceil(call.arguments.length / 2);
  const pieces = call.asObject ? [args] : [call.arguments.slice(0, half), call.arguments.slice(half)];
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
  for (const piece of pieces) res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  res.write(chunk({}, finish));
  res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\ndata: [DONE]\n\n`);
  res.end();
}

/** The paths the fake serves, by the operation they stand for. */
const OPERATIONS: Readonly<Record<string, 'chat' | 'completion' | 'embedding' | 'image'>> = {
  '/v1/chat/completions': 'chat',
  '/v1/completions': 'completion',
  '/v1/embeddings': 'embedding',
  '/v1/images/generations': 'image',
};

/** A 1x1 PNG: what the fake's image answers carry. */
export const FAKE_IMAGE_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

