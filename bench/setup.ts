/**
 * Prepares the gateway's data folder the way a user would, through the real CLI (dist/cli.cjs):
 * an `openai` channel to the fake upstream, priced models (so every request is really charged),
 * an account with a large balance, and a key whose rate limits sit well above the benchmark's load.
 */
import { execFileSync } from 'node:child_process';
import { COMPLETION_MODEL } from './completion.ts';

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

/** The bench account's starting balance, USD (and in micro-USD, as the store keeps it). */
export const INITIAL_BALANCE_USD = 1_000_000;
export const INITIAL_BALANCE_MICROS = INITIAL_BALANCE_USD * 1_000_000;

export interface GatewaySetup {
  readonly key: string;
  readonly account: string;
}

/** Where the gateway keeps its data: a SQLite data folder, or a PostgreSQL database (`--database`) with the secret key that seals channel keys. */
export interface GatewayStore {
  readonly dataDir: string;
  readonly database?: { readonly url: string; readonly secretKey: string };
}

export function cli(cliPath: string, store: GatewayStore, args: readonly string[]): string {
  const where = store.database ? ['--database', store.database.url] : [];
  return execFileSync(process.execPath, [cliPath, ...args, '--data', store.dataDir, ...where], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
    env: store.database ? { ...process.env, MODEL_GATEWAY_SECRET_KEY: store.database.secretKey } : process.env,
  });
}

export function setUpGateway(cliPath: string, store: GatewayStore, upstreamUrl: string, models: readonly string[]): GatewaySetup {
  const run = (...args: string[]): string => cli(cliPath, store, args);
  run('channel', 'add', '--name', 'bench-upstream', '--base-url', `${upstreamUrl}/v1`, '--api-key', 'sk-upstream-bench', '--models', models.join(','));
  // USD per million tokens: small but not zero, so reservations and debits happen on every request.
  // The offline completion model, for the inline-completion case (bench/completion.ts).
  run('channel', 'add', '--name', 'bench-echo', '--type', 'echo', '--models', COMPLETION_MODEL);
  for (const model of models) run('model', 'price', model, '--input', '0.5', '--output', '1.5');
  run('model', 'price', COMPLETION_MODEL, '--kind', 'completion', '--input', '0.5', '--output', '1.5');
  run('account', 'create', 'bench', '--balance', String(INITIAL_BALANCE_USD));
  const out = run('key', 'create', '--account', 'bench', '--name', 'bench-key', '--rpm', '100000000', '--concurrency', '100000');
  const key = /sk-[A-Za-z0-9_-]{16,}/.exec(out)?.[0];
  if (!key) throw new Error(`key create printed no key: ${JSON.stringify(out)}`);
  return { key, account: 'bench' };
}

export interface Bookkeeping {
  readonly requestsSent: number;
  readonly logRows: number;
  readonly streamLogRows: number;
  readonly erroredLogRows: number;
  /** Micro-USD: the sum of the logged costs, and how much the balance went down. */
  readonly loggedCost: number;
  readonly balanceDecrease: number;
  readonly ok: boolean;
}

function bookkeeping(requestsSent: number, logs: Record<string, unknown>, balance: unknown): Bookkeeping {
  const balanceDecrease = INITIAL_BALANCE_MICROS - Number(balance);
  const logRows = Number(logs['n']);
  const loggedCost = Number(logs['cost']);
  return {
    requestsSent,
    logRows,
    streamLogRows: Number(logs['streams']),
    erroredLogRows: Number(logs['errors']),
    loggedCost,
    balanceDecrease,
    ok: logRows === requestsSent && loggedCost === balanceDecrease && loggedCost > 0,
  };
}

/** After the gateway stopped: every request logged, and the logged charges equal the balance decrease. */
export async function checkBookkeeping(dbFile: string, requestsSent: number): Promise<Bookkeeping> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const logs = db.prepare('SELECT count(*) AS n, coalesce(sum(cost), 0) AS cost, coalesce(sum(stream), 0) AS streams, coalesce(sum(error_code IS NOT NULL), 0) AS errors FROM request_logs').get() as Record<string, number>;
    const account = db.prepare("SELECT balance FROM accounts WHERE name = 'bench'").get() as Record<string, number>;
    return bookkeeping(requestsSent, logs, account.balance);
  } finally {
    db.close();
  }
}

/**
 * The same check on a PostgreSQL database, after every instance on it stopped: `balance` is settled money
 * (what leases held for requests in flight came back on the graceful stop), and no lease is left.
 */
export async function checkPostgresBookkeeping(url: string, requestsSent: number): Promise<Bookkeeping & { readonly leased: number }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const logs = await client.query(
      'SELECT count(*) AS n, coalesce(sum(cost), 0) AS cost, count(*) FILTER (WHERE stream) AS streams, count(*) FILTER (WHERE error_code IS NOT NULL) AS errors FROM request_logs',
    );
    const account = await client.query("SELECT balance, leased FROM accounts WHERE name = 'bench'");
    const row = account.rows[0] as { balance: string; leased: string };
    const books = bookkeeping(requestsSent, logs.rows[0] as Record<string, unknown>, row.balance);
    const leased = Number(row.leased);
    return { ...books, leased, ok: books.ok && leased === 0 };
  } finally {
    await client.end();
  }
}
