/**
 * The inline-completion path (issue 14): what one completion costs from the editor's keystroke to the
 * ghost text's data, against the gateway's offline `echo-completion` model (no token delay), one at a
 * time as an editor sends them. Two ways, in alternating rounds:
 *
 *   raw        the same fill-in-the-middle request as plain HTTP (an undici Pool, the body stringified):
 *              what any client pays;
 *   extension  the extension's engine (src/extension/completions, what the provider calls once the
 *              debounce has passed): context from the document, the request, the typed client with
 *              its answer check, the clean-up. Every request at a new spot, so the cache never answers.
 *
 * The difference of the two is the extension's own cost per completion, in time (p50) and in CPU of
 * this process (the load generator), where the extension's code runs.
 */
import { Pool } from 'undici';
import { GatewayClient } from '../src/client/index.ts';
import { buildContext } from '../src/extension/completions/context.ts';
import { CompletionEngine } from '../src/extension/completions/engine.ts';
import { SINGLE_LINE } from '../src/extension/completions/lineMode.ts';
import { fimRequest } from '../src/extension/completions/requests.ts';
import { memoryInMap } from '../src/extension/completions/route.ts';
import { quantiles, type Quantiles } from './load.ts';

export const COMPLETION_MODEL = 'echo-completion';

export interface CompletionPathResult {
  readonly requests: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly latency: Quantiles;
  /** CPU of this process (user + system) per completion, microseconds. */
  readonly cpuMicrosPerRequest: number;
}

/** A small file with the cursor in the middle of a line; `n` makes each spot new. */
function documentAt(n: number): { text: string; offset: number } {
  const before = `import { greet } from './greet';\n\nexport function hello${n}(name: string): string {\n  const greeting = `;
  const after = ` + name;\n  return greet(greeting);\n}\n`;
  return { text: before + after, offset: before.length };
}

function contextAt(n: number) {
  const { text, offset } = documentAt(n);
  return buildContext({ path: 'src/hello.ts', languageId: 'typescript', text, offset, openFiles: [] });
}

type OneCompletion = (n: number) => Promise<void>;

/** Completions one after another for `maxMs` (or `maxRequests`), spots numbered from `first`. */
async function measure(one: OneCompletion, maxMs: number, maxRequests: number, first: number): Promise<{ result: CompletionPathResult; samples: Float64Array }> {
  const latencies = new Float64Array(maxRequests);
  let done = 0;
  let errors = 0;
  let firstError: string | null = null;
  const cpu = process.cpuUsage();
  const deadline = performance.now() + maxMs;
  for (let n = first; done + errors < maxRequests && performance.now() < deadline; n++) {
    const start = performance.now();
    try {
      await one(n);
      latencies[done++] = performance.now() - start;
    } catch (error) {
      errors++;
      firstError ??= error instanceof Error ? error.message : String(error);
    }
  }
  const used = process.cpuUsage(cpu);
  const samples = latencies.subarray(0, done);
  return { result: { requests: done, errors, firstError, latency: quantiles(samples, done), cpuMicrosPerRequest: done > 0 ? (used.user + used.system) / done : Number.NaN }, samples };
}

/** Runs as one: counts added, CPU weighted by requests, quantiles over every sample. */
function merge(runs: readonly { result: CompletionPathResult; samples: Float64Array }[]): CompletionPathResult {
  const requests = runs.reduce((s, r) => s + r.result.requests, 0);
  const joined = new Float64Array(requests);
  let at = 0;
  for (const r of runs) {
    joined.set(r.samples, at);
    at += r.samples.length;
  }
  return {
    requests,
    errors: runs.reduce((s, r) => s + r.result.errors, 0),
    firstError: runs.find((r) => r.result.firstError)?.result.firstError ?? null,
    latency: quantiles(joined, requests),
    cpuMicrosPerRequest: requests > 0 ? runs.reduce((s, r) => s + r.result.cpuMicrosPerRequest * r.result.requests, 0) / requests : Number.NaN,
  };
}

/** Both ways, `rounds` rounds of `maxMs / rounds` each, after a warm-up of each. */
export async function completionPath(origin: string, apiKey: string, opts: { maxMs: number; maxRequests: number; rounds: number }): Promise<{ raw: CompletionPathResult; extension: CompletionPathResult; sent: number }> {
  const pool = new Pool(origin, { connections: 1, keepAliveTimeout: 60_000 });
  const client = new GatewayClient({ baseUrl: origin, apiKey, maxRetries: 0 });
  const engine = new CompletionEngine(memoryInMap());
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  const raw: OneCompletion = async (n) => {
    const body = JSON.stringify(fimRequest(COMPLETION_MODEL, contextAt(n), SINGLE_LINE));
    const res = await pool.request({ path: '/v1/completions', method: 'POST', headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  };
  const extension: OneCompletion = async (n) => {
    const answer = await engine.complete(client, { baseUrl: origin, model: COMPLETION_MODEL, context: contextAt(n), shape: SINGLE_LINE });
    if (answer.fromCache || answer.route !== 'fim' || answer.text === '') throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
  };
  const runs = { raw: [] as Awaited<ReturnType<typeof measure>>[], extension: [] as Awaited<ReturnType<typeof measure>>[] };
  let n = 0;
  const run = async (way: 'raw' | 'extension', maxMs: number, maxRequests: number, keep: boolean): Promise<void> => {
    const measured = await measure(way === 'raw' ? raw : extension, maxMs, maxRequests, n);
    n += measured.result.requests + measured.result.errors;
    if (keep) runs[way].push(measured);
  };
  try {
    await run('raw', Math.max(200, opts.maxMs / 10), opts.maxRequests, false);
    await run('extension', Math.max(200, opts.maxMs / 10), opts.maxRequests, false);
    const perRound = { ms: opts.maxMs / opts.rounds, requests: Math.ceil(opts.maxRequests / opts.rounds) };
    for (let round = 0; round < opts.rounds; round++) {
      for (const way of round % 2 === 0 ? (['raw', 'extension'] as const) : (['extension', 'raw'] as const)) await run(way, perRound.ms, perRound.requests, true);
    }
  } finally {
    await client.close();
    await pool.destroy();
  }
  // `sent`: every completion asked of the gateway, warm-ups included (each has its log row).
  return { raw: merge(runs.raw), extension: merge(runs.extension), sent: n };
}
