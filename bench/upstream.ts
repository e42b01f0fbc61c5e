/**
 * A fast fake OpenAI-compatible upstream for the benchmark, run in its own child process.
 * Does as little per request as it can: one JSON.parse of the (small) body, one prebuilt answer.
 *
 * The model name chooses the shape of the answer, so no extra field has to survive the gateway:
 *   any model                -> non-streaming JSON with usage, or (stream: true) 20 chunks, no delay
 *   "<name>-s<N>-d<MS>"      -> streams of N content chunks, MS milliseconds apart
 * Every stream ends with a usage chunk (when stream_options.include_usage is set) and [DONE].
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Shape {
  readonly chunks: number;
  readonly delayMs: number;
  readonly json: Buffer;
  readonly chunkBufs: readonly Buffer[];
  readonly usageBuf: Buffer;
}

const DONE = Buffer.from('data: [DONE]\n\n');
const PROMPT_TOKENS = 12;
const shapes = new Map<string, Shape>();

function shapeFor(model: string): Shape {
  let shape = shapes.get(model);
  if (shape) return shape;
  const m = /-s(\d+)-d(\d+)$/.exec(model);
  const chunks = m ? Number(m[1]) : 20;
  const delayMs = m ? Number(m[2]) : 0;
  const created = Math.floor(Date.now() / 1000);
  const json = Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(chunks).trim() }, finish_reason: 'stop' }],
      usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: chunks, total_tokens: PROMPT_TOKENS + chunks },
    }),
  );
  const chunk = (delta: object, finish: string | null): Buffer =>
    Buffer.from(
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  const chunkBufs: Buffer[] = [];
  for (let i = 0; i < chunks; i++) {
    chunkBufs.push(chunk(i === 0 ? { role: 'assistant', content: 'word' } : { content: ' word' }, i === chunks - 1 ? 'stop' : null));
  }
  const usageBuf = Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: chunks, total_tokens: PROMPT_TOKENS + chunks } })}\n\n`,
  );
  shape = { chunks, delayMs, json, chunkBufs, usageBuf };
  shapes.set(model, shape);
  return shape;
}

function stream(res: ServerResponse, shape: Shape, withUsage: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let i = 0;
  let timer: NodeJS.Timeout | null = null;
  const finish = (): void => {
    if (withUsage) res.write(shape.usageBuf);
    res.end(DONE);
  };
  const next = (): void => {
    timer = null;
    if (res.destroyed) return;
    res.write(shape.chunkBufs[i++]);
    if (i < shape.chunks) timer = setTimeout(next, shape.delayMs);
    else finish();
  };
  res.on('close', () => {
    if (timer) clearTimeout(timer);
  });
  if (shape.delayMs === 0) {
    for (const b of shape.chunkBufs) res.write(b);
    finish();
  } else {
    next();
  }
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"bench_error","code":"not_found"}}');
      return;
    }
    let body: { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json","type":"bench_error","code":"invalid_request"}}');
      return;
    }
    const shape = shapeFor(typeof body.model === 'string' ? body.model : 'bench');
    if (body.stream === true) {
      stream(res, shape, body.stream_options?.include_usage === true);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': shape.json.length });
      res.end(shape.json);
    }
  });
}

const server = createServer({ keepAliveTimeout: 60_000, noDelay: true }, handle);
server.maxRequestsPerSocket = 0;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
