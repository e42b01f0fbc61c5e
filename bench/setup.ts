/**
 * Prepares the gateway's data folder the way a user would, through the real CLI (dist/cli.cjs):
 * an `openai` channel to the fake upstream, priced models (so every request is really charged),
 * an account with a large balance, and a key whose rate limits sit well above the benchmark's load.
 */
import { execFileSync } from 'node:child_process';

export const MODELS = {
  /** Non-streaming answers, and 20-chunk streams with no delay (first-byte latency). */
  fast: 'bench',
  /** 20 chunks, 5 ms apart: the paced stream. */
  paced: 'bench-s20-d5',
} as const;

/** Long streams for the held-streams case: `chunks` chunks `delayMs` apart. */
export function holdModel(chunks: number, delayMs: number): string {
  return `bench-s${chunks}-d${delayMs}`;
}

export interface GatewaySetup {
  readonly key: string;
  readonly account: string;
}

export function cli(cliPath: string, dataDir: string, args: readonly string[]): string {
  return execFileSync(process.execPath, [cliPath, ...args, '--data', dataDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
}

export function setUpGateway(cliPath: string, dataDir: string, upstreamUrl: string, models: readonly string[]): GatewaySetup {
  const run = (...args: string[]): string => cli(cliPath, dataDir, args);
  run('channel', 'add', '--name', 'bench-upstream', '--base-url', `${upstreamUrl}/v1`, '--api-key', 'sk-upstream-bench', '--models', models.join(','));
  // USD per million tokens: small but not zero, so reservations and debits happen on every request.
  for (const model of models) run('model', 'price', model, '--input', '0.5', '--output', '1.5');
  run('account', 'create', 'bench', '--balance', '1000000');
  const out = run('key', 'create', '--account', 'bench', '--name', 'bench-key', '--rpm', '100000000', '--concurrency', '100000');
  const key = /sk-[A-Za-z0-9_-]{16,}/.exec(out)?.[0];
  if (!key) throw new Error(`key create printed no key: ${JSON.stringify(out)}`);
  return { key, account: 'bench' };
}
