// The migrations of the console's logs and dashboards (SQLite 20, PostgreSQL 12) on a database written by the
// version before: the hourly tally is filled from the log rows kept, so the dashboards count them at once (all
// but latency, counted from the new version on); the old rows read with no upstream model, user agent or address;
// and the next batch adds to the tally.
import assert from 'node:assert/strict';
import { postgresBefore, sqliteBefore } from '../../support/schemaBefore.ts';
import { HOUR_MS } from '../../../src/gateway/store/logRollup.ts';
import type { StatsQuery } from '../../../src/gateway/store/logStats.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import type { RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { referenceStats } from '../../support/logStatsReference.ts';

const TALLY_SQLITE = 20;
const TALLY_POSTGRES = 12;
const T0 = Date.UTC(2026, 3, 1, 12);

/** The log rows of the version before (two accounts and none; hours, models, errors), as records and as INSERTs. */
const OLD: readonly RequestLog[] = [
  [1, -3 * HOUR_MS, 'm', 200, null, 500], [1, -3 * HOUR_MS + 1, 'm', 200, null, 700], [1, -1, 'n', 429, 'rate_limited', 0],
  [2, 0, 'm', 200, null, 9_000], [2, 5, null, 404, 'not_found', 0], [null, 0, null, 401, 'invalid_api_key', 0], [1, -26 * HOUR_MS, 'm', 200, null, 40],
].map(([accountId, dt, model, status, errorCode, cost], i) => ({
  time: T0 + (dt as number), requestId: `old-${i}`, method: 'POST', path: '/v1/chat/completions', accountId: accountId as number | null, keyId: null, keyName: null,
  model: model as string | null, channel: null, status: status as number, errorCode: errorCode as string | null, promptTokens: i, completionTokens: 2 * i,
  usageEstimated: false, cost: cost as number, latencyMs: 10 * i, firstByteMs: null, stream: false,
}));

function oldRows(falseValue: string): string[] {
  const text = (v: string | null) => (v === null ? 'NULL' : `'${v}'`);
  return [
    "INSERT INTO accounts (id, name, balance, created_at) VALUES (1, 'team', 100000, 1), (2, 'other', 100000, 1)",
    ...OLD.map((l) => `INSERT INTO request_logs (time, request_id, method, path, account_id, model, status, error_code, prompt_tokens, completion_tokens, usage_estimated, cost, latency_ms, stream)
      VALUES (${l.time}, '${l.requestId}', 'POST', '${l.path}', ${l.accountId ?? 'NULL'}, ${text(l.model)}, ${l.status}, ${text(l.errorCode)}, ${l.promptTokens}, ${l.completionTokens}, ${falseValue}, ${l.cost}, ${l.latencyMs}, ${falseValue})`),
  ];
}

async function check(store: Store): Promise<void> {
  const names = (id: number) => ({ 1: 'team', 2: 'other' } as Record<number, string>)[id] ?? null;
  const toHour = Math.floor(T0 / HOUR_MS) + 1;
  const queries: StatsQuery[] = [1, 2, undefined].map((accountId) => ({
    fromHour: toHour - 48, toHour, bucketHours: 1, top: 8, spent: [[toHour - 24, toHour]], ...(accountId !== undefined ? { accountId } : {}),
  }));
  for (const q of queries) {
    const { latency, ...counted } = await store.requestLogs.stats(q);
    const { latency: _, ...expected } = referenceStats(OLD, q, names);
    assert.deepEqual(counted, expected, `account ${q.accountId ?? 'all'}`);
    assert.deepEqual(latency, { requests: 0, p50: null, p95: null }, 'latencies are counted from this version on');
  }
  const [newest] = await store.requestLogs.list({ limit: 1, accountId: 2 });
  assert.deepEqual([newest!.requestId, newest!.upstreamModel, newest!.userAgent, newest!.clientIp], ['old-4', null, null, null]);
  const added: RequestLog = { ...OLD[0]!, requestId: 'new', cost: 11, latencyMs: 25 };
  await store.write({ logs: [added], keysUsed: new Map() });
  const after = await store.requestLogs.stats(queries[0]!);
  assert.deepEqual({ ...after, latency: null }, { ...referenceStats([...OLD, added], queries[0]!, names), latency: null });
  assert.equal(after.latency.requests, 1);
}

describe("the logs' tally migrations, from the version before", () => {
  it(`SQLite: schema ${TALLY_SQLITE - 1} to ${TALLY_SQLITE}`, async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes('usage_hourly'))!.version, TALLY_SQLITE);
    await sqliteBefore(TALLY_SQLITE, oldRows('0'), check);
  });

  it(`PostgreSQL: schema ${TALLY_POSTGRES - 1} to ${TALLY_POSTGRES}`, async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes('usage_hourly'))!.version, TALLY_POSTGRES);
    await postgresBefore(TALLY_POSTGRES, oldRows('false'), "SELECT setval(pg_get_serial_sequence('accounts', 'id'), 3, false)", check);
  });
});
