/**
 * A tiny gateway for relay tests: a node:http server on 127.0.0.1 port 0 that hands every
 * POST body to the real relayChat with the channels the test chose, answers a `failed`
 * outcome the way the core does (contract error body), and records every outcome.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, GATEWAY_ERROR_TYPE } from '../../../src/contract/index.ts';
import { PROVIDERS } from '../../../src/gateway/providers/index.ts';
import { createRelay } from '../../../src/gateway/relay/index.ts';
import { UpstreamPools } from '../../../src/gateway/relay/pools.ts';
import { SseDecoder } from '../../../src/wire/sse.ts';
import type { Channel, RelayOutcome } from '../../../src/gateway/relay/types.ts';

export interface HarnessOptions {
  readonly channels: readonly Channel[];
  readonly maxCompletionTokens?: number | null;
  /** The echo model's pace; 0 unless a test wants to watch it stream. */
  readonly echoDelayMs?: number;
}

export interface Harness {
  readonly url: string;
  readonly outcomes: RelayOutcome[];
  /** Resolves with the outcome of the `n`th request (1-based) once the relay has returned it. */
  outcome(n: number): Promise<RelayOutcome>;
  options: HarnessOptions;
  close(): Promise<void>;
}

let nextId = 1;

export function channel(overrides: Partial<Channel> & { baseUrl?: string | null }): Channel {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `ch-${id}`,
    type: 'openai',
    baseUrl: null,
    apiKey: `sk-upstream-${id}`,
    models: new Map(),
    priority: 0,
    weight: 1,
    timeouts: { connectMs: 2000, firstByteMs: 5000, idleMs: 5000 },
    proxy: null,
    ...overrides,
  };
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const outcomes: RelayOutcome[] = [];
  const waiters = new Map<number, (o: RelayOutcome) => void>();
  let count = 0;
  const pools = new UpstreamPools();
  const server = createServer(async (req, res) => {
    const n = ++count;
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const requestId = `req-${n}`;
    res.setHeader('x-request-id', requestId);
    const relay = createRelay(PROVIDERS, { pools, echoDelayMs: harness.options.echoDelayMs ?? 0 });
    const outcome = await relay({
      requestId,
      model: body.model,
      body,
      stream: body.stream === true,
      clientWantsUsage: body.stream_options?.include_usage === true,
      maxCompletionTokens: harness.options.maxCompletionTokens ?? null,
      channels: harness.options.channels,
      res,
      signal: controller.signal,
    });
    outcomes[n - 1] = outcome;
    if (outcome.kind === 'failed') {
      const status = outcome.upstreamRejection?.status ?? ERROR_CODES[outcome.code].status;
      const message = `${ERROR_CODES[outcome.code].message} ${outcome.detail} (request id: ${requestId})`;
      if (outcome.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(outcome.retryAfterSeconds));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message, type: GATEWAY_ERROR_TYPE, code: outcome.code } }));
    }
    waiters.get(n)?.(outcome);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const harness: Harness = {
    url: `http://127.0.0.1:${port}`,
    outcomes,
    options,
    outcome(n) {
      const known = outcomes[n - 1];
      return known ? Promise.resolve(known) : new Promise((resolve) => waiters.set(n, resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pools.close();
    },
  };
  return harness;
}

/** POSTs a chat body to the harness and returns the raw response. */
export function post(harness: Harness, body: object, signal?: AbortSignal): Promise<Response> {
  return fetch(`${harness.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads an SSE response as a client would: a list of `data` payloads, in order. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The product's decoder: the tests read streams the way clients of the gateway do. */
  readonly #decoder = new SseDecoder();
  readonly data: string[] = [];
  ended = false;

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** Reads until `predicate` holds for the data received so far, or the stream ends. */
  async until(predicate: (data: string[]) => boolean): Promise<string[]> {
    while (!predicate(this.data) && !this.ended) {
      const { value, done } = await this.#reader.read();
      if (done) {
        this.ended = true;
        for (const item of this.#decoder.end()) if (item.type === 'event' && !item.unterminated) this.data.push(item.data);
        break;
      }
      for (const item of this.#decoder.push(value)) if (item.type === 'event') this.data.push(item.data);
    }
    return this.data;
  }

  all(): Promise<string[]> {
    return this.until(() => false);
  }

  /** The generated text in the data received so far. */
  content(): string {
    return this.data
      .filter((d) => d !== '[DONE]')
      .map((d) => JSON.parse(d) as { choices?: Array<{ delta?: { content?: string } }> })
      .map((c) => c.choices?.map((x) => x.delta?.content ?? '').join('') ?? '')
      .join('');
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}
