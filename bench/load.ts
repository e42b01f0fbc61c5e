/**
 * The load generator: undici Pools with keep-alive, closed-loop workers, bounded by a request count
 * AND a time limit. Latencies come from process.hrtime.bigint(); a request counts as an error when its
 * status is not 200, it throws, or (for streams) it does not end with `data: [DONE]`.
 */
import { Pool } from 'undici';

export interface Target {
  readonly name: string;
  readonly origin: string;
  /** Several instances of one server: requests go round-robin over these origins (`origin` is the first). */
  readonly origins?: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
}

export interface LoadSpec {
  readonly path: string;
  readonly body: string;
  readonly stream: boolean;
  readonly concurrency: number;
  readonly maxRequests: number;
  readonly maxMs: number;
}

export interface Quantiles {
  readonly p50: number;
  readonly p99: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly elapsedMs: number;
  readonly rps: number;
  /** Time to the end of the body, ms. */
  readonly latency: Quantiles;
  /** Time to the first body byte, ms. */
  readonly firstByte: Quantiles;
  /** Every successful request's latency and first byte (ms), for merging rounds; not written to the results file. */
  readonly samples?: { readonly latencies: Float64Array; readonly firstBytes: Float64Array };
}

const DONE_TAIL = 'data: [DONE]\n\n';

export function quantiles(values: Float64Array, n: number): Quantiles {
  if (n === 0) return { p50: Number.NaN, p99: Number.NaN };
  const sorted = values.slice(0, n).sort();
  const at = (q: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))];
  return { p50: at(0.5), p99: at(0.99) };
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${(err as { code?: string }).code ?? err.name}: ${err.message}`;
  return String(err);
}

export async function runLoad(target: Target, spec: LoadSpec): Promise<LoadResult> {
  // One Pool per origin, each able to hold every worker's connection; each request takes the next origin in turn.
  const pools = (target.origins ?? [target.origin]).map(
    (origin) => new Pool(origin, { connections: spec.concurrency, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 30_000, bodyTimeout: 30_000 }),
  );
  let turn = 0;
  const headers = { 'content-type': 'application/json', ...target.headers };
  const latencies = new Float64Array(spec.maxRequests);
  const firstBytes = new Float64Array(spec.maxRequests);
  let started = 0;
  let done = 0;
  let errors = 0;
  let firstError: string | null = null;
  const t0 = process.hrtime.bigint();
  const deadline = t0 + BigInt(spec.maxMs) * 1_000_000n;

  const fail = (why: string): void => {
    errors++;
    firstError ??= why;
  };

  const worker = async (): Promise<void> => {
    while (started < spec.maxRequests && process.hrtime.bigint() < deadline) {
      started++;
      const start = process.hrtime.bigint();
      let first = 0n;
      try {
        const pool = pools[turn++ % pools.length]!;
        const res = await pool.request({ path: spec.path, method: 'POST', headers, body: spec.body });
        let tail = '';
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          if (first === 0n) first = process.hrtime.bigint();
          size += chunk.length;
          tail = chunk.length >= DONE_TAIL.length ? chunk.toString('latin1', chunk.length - DONE_TAIL.length) : (tail + chunk.toString('latin1')).slice(-DONE_TAIL.length);
        }
        const end = process.hrtime.bigint();
        if (res.statusCode !== 200) {
          fail(`HTTP ${res.statusCode}: ${tail}`);
        } else if (spec.stream && tail !== DONE_TAIL) {
          fail(`stream did not end with [DONE] (${size} bytes, tail ${JSON.stringify(tail)})`);
        } else {
          latencies[done] = Number(end - start) / 1e6;
          firstBytes[done] = Number((first || end) - start) / 1e6;
          done++;
        }
      } catch (err) {
        fail(describe(err));
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: spec.concurrency }, worker));
  } finally {
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
  const elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    requests: done,
    errors,
    firstError,
    elapsedMs,
    rps: done / (elapsedMs / 1000),
    latency: quantiles(latencies, done),
    firstByte: quantiles(firstBytes, done),
    samples: { latencies: latencies.subarray(0, done), firstBytes: firstBytes.subarray(0, done) },
  };
}

/** Several runs against one target as one: counts and times added, quantiles over every sample. */
export function mergeRuns(runs: readonly LoadResult[]): LoadResult {
  const n = runs.reduce((sum, r) => sum + r.requests, 0);
  const latencies = new Float64Array(n);
  const firstBytes = new Float64Array(n);
  let at = 0;
  for (const r of runs) {
    if (r.samples) {
      latencies.set(r.samples.latencies, at);
      firstBytes.set(r.samples.firstBytes, at);
    }
    at += r.requests;
  }
  const elapsedMs = runs.reduce((sum, r) => sum + r.elapsedMs, 0);
  return {
    requests: n,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    firstError: runs.find((r) => r.firstError)?.firstError ?? null,
    elapsedMs,
    rps: n / (elapsedMs / 1000),
    latency: quantiles(latencies, n),
    firstByte: quantiles(firstBytes, n),
  };
}

export interface HoldSpec {
  readonly path: string;
  readonly body: string;
  readonly streams: number;
  /** Give up opening after this long. */
  readonly maxMs: number;
  /** Called once, when every stream has its first byte (or opening gave up). */
  readonly onAllOpen: () => Promise<void>;
}

export interface HoldResult {
  readonly streams: number;
  readonly completed: number;
  readonly errors: number;
  readonly firstError: string | null;
  /** Most streams open (first byte received, not yet ended) at the same time. */
  readonly peakOpen: number;
  /** Time until every stream had its first byte, ms. */
  readonly openMs: number;
  readonly totalMs: number;
}

/** Opens `streams` streams at once (one connection each) and holds them all open until they end. */
export async function holdStreams(target: Target, spec: HoldSpec): Promise<HoldResult> {
  const pool = new Pool(target.origin, {
    connections: spec.streams,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const headers = { 'content-type': 'application/json', ...target.headers };
  let open = 0;
  let peakOpen = 0;
  let settled = 0; // got a first byte or failed before one
  let completed = 0;
  let errors = 0;
  let firstError: string | null = null;
  const t0 = process.hrtime.bigint();
  let openMs = Number.NaN;
  let allOpen!: () => void;
  const allOpenP = new Promise<void>((resolve) => (allOpen = resolve));
  const settle = (): void => {
    if (++settled === spec.streams) {
      openMs = Number(process.hrtime.bigint() - t0) / 1e6;
      allOpen();
    }
  };
  const giveUp = setTimeout(allOpen, spec.maxMs);
  const fail = (why: string): void => {
    errors++;
    firstError ??= why;
  };

  const one = async (): Promise<void> => {
    let gotFirst = false;
    try {
      const res = await pool.request({ path: spec.path, method: 'POST', headers, body: spec.body });
      let tail = '';
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (!gotFirst) {
          gotFirst = true;
          open++;
          if (open > peakOpen) peakOpen = open;
          settle();
        }
        tail = (tail + chunk.toString('latin1')).slice(-DONE_TAIL.length);
      }
      if (res.statusCode !== 200) fail(`HTTP ${res.statusCode}: ${tail}`);
      else if (tail !== DONE_TAIL) fail(`stream did not end with [DONE] (tail ${JSON.stringify(tail)})`);
      else completed++;
    } catch (err) {
      fail(describe(err));
    } finally {
      if (gotFirst) open--;
      else settle();
    }
  };

  try {
    const all = Promise.all(Array.from({ length: spec.streams }, one));
    await allOpenP;
    clearTimeout(giveUp);
    await spec.onAllOpen();
    await all;
  } finally {
    clearTimeout(giveUp);
    await pool.destroy();
  }
  return { streams: spec.streams, completed, errors, firstError, peakOpen, openMs, totalMs: Number(process.hrtime.bigint() - t0) / 1e6 };
}
