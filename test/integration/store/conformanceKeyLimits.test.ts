// Keys' own limits and usage (issue 10) behave the same in every store: memory, SQLite, PostgreSQL.
// The limits are kept and changed whole, refused when out of range (by the store itself, and by the
// database's CHECK constraints for a write that goes around it), and key_usage counts every written log
// of a key per UTC day, in the same batch as the logs, untouched by log pruning.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { openAnyStore, openStore } from '../../../src/gateway/store/index.ts';
import { describeEachStore, type RawSql } from '../../support/stores.ts';
import { DAY_MS, dayOf, type KeyLimits } from '../../../src/gateway/store/keySettings.ts';
import { StoreError, type NewKey, type RequestLog, type Store } from '../../../src/gateway/store/types.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { tempDir } from '../gateway/helpers.ts';

const invalid = (error: unknown) => error instanceof StoreError && error.code === 'invalid';

function log(overrides: Partial<RequestLog>): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: null, stream: false, ...overrides,
  };
}

const LIMITS: KeyLimits = { rpm: 7, concurrency: 3, tpm: 1000, rpd: 50, spendLimit: 2_500_000, spendPeriod: 'day', allowIps: ['127.0.0.2', '10.0.0.0/8', '2001:db8::/32'] };

describeEachStore("keys' limits and usage in the Store", (current, name) => {
  let store: Store;
  let raw: RawSql | null;
  beforeEach(() => ({ store, raw } = current()));

  const newKey = (accountId: number, name: string, extra: Partial<NewKey> = {}): NewKey => ({
    accountId, name, hash: `${name}-${'h'.repeat(60)}`, prefix: 'sk-…', models: null, expiresAt: null, rpm: 1, concurrency: 1, ...extra,
  });

  it('a new key has no extra limits unless given; given ones are kept; setKeyLimits changes them all and nothing else', async () => {
    const account = await store.createAccount('team', 0);
    const plain = await store.createKey(newKey(account.id, 'plain'));
    assert.deepEqual([plain.tpm, plain.rpd, plain.spendLimit, plain.spendPeriod, plain.allowIps], [0, 0, null, 'total', null]);
    const made = await store.createKey(newKey(account.id, 'limited', { rpm: LIMITS.rpm, concurrency: LIMITS.concurrency, limits: LIMITS, models: ['m'] }));
    assert.deepEqual({ ...made }, { ...made, ...LIMITS });
    assert.deepEqual((await store.listKeys()).find((k) => k.name === 'limited'), made);

    store.changedSinceLastCheck();
    await store.setKeyLimits(plain.id, LIMITS);
    assert.equal(store.changedSinceLastCheck(), true, 'the request path sees the new limits');
    const changed = (await store.snapshot()).keys.find((k) => k.id === plain.id)!;
    assert.deepEqual({ ...changed }, { ...plain, ...LIMITS });
    const cleared = { ...LIMITS, tpm: 0, rpd: 0, spendLimit: null, allowIps: null };
    await store.setKeyLimits(plain.id, cleared);
    assert.deepEqual({ ...(await store.listKeys()).find((k) => k.id === plain.id)! }, { ...plain, ...cleared });
    await assert.rejects(store.setKeyLimits(plain.id + 1000, LIMITS), (e: unknown) => e instanceof StoreError && e.code === 'not_found');
  });

  it("an audited change of a key's limits writes its audit row with it; a refused one writes neither", async () => {
    const account = await store.createAccount('team', 0);
    const key = await store.createKey(newKey(account.id, 'k'));
    const audit = { actor: 'cli', action: 'key.limits', target: 'k (account team)', details: { rpd: 50 } } as const;
    await store.setKeyLimits(key.id, LIMITS, audit);
    await assert.rejects(store.setKeyLimits(key.id, { ...LIMITS, rpd: -1 }, audit), invalid);
    await assert.rejects(store.setKeyLimits(key.id + 1000, LIMITS, audit), (e: unknown) => e instanceof StoreError && e.code === 'not_found');
    const rows = await store.listAudit({ limit: 10 });
    assert.deepEqual(rows.map((r) => [r.actor, r.action, r.target, r.details]), [['cli', 'key.limits', 'k (account team)', { rpd: 50 }]]);
    assert.equal((await store.listKeys())[0]!.rpd, 50);
  });

  it('refuses limits out of range, an unknown period and a loose IP list, changing nothing', async () => {
    const account = await store.createAccount('team', 0);
    const key = await store.createKey(newKey(account.id, 'k', { limits: LIMITS }));
    for (const bad of [
      { spendLimit: 0 }, { spendLimit: -5 }, { spendLimit: 0.5 }, { spendLimit: 1e15 + 1 }, { tpm: -1 }, { rpd: 1.5 }, { spendPeriod: 'week' },
      { allowIps: [] }, { allowIps: ['10.1.2.3/8'] }, { allowIps: ['localhost'] }, { allowIps: [' 1.2.3.4'] }, { allowIps: ['fe80::1%eth0'] },
      { allowIps: new Array(101).fill('1.2.3.4') },
    ] as Partial<KeyLimits>[]) {
      await assert.rejects(store.setKeyLimits(key.id, { ...LIMITS, ...bad }), invalid, JSON.stringify(bad).slice(0, 60));
      await assert.rejects(store.createKey(newKey(account.id, `k${Math.random()}`, { limits: { ...LIMITS, ...bad } })), invalid);
    }
    assert.deepEqual((await store.listKeys()).map((k) => k.name), ['k']);
    assert.deepEqual({ ...(await store.listKeys())[0]! }, { ...key });
  });

  if (name !== 'memory') it('the database itself refuses a spending limit, a period or a rate out of range written around the store', async () => {
    const account = await store.createAccount('team', 0);
    const key = await store.createKey(newKey(account.id, 'k'));
    for (const set of ['spend_limit = 0', 'spend_limit = 1000000000000001', "spend_period = 'week'", 'tpm = -1', 'rpd = -1']) {
      await assert.rejects(raw!(`UPDATE api_keys SET ${set} WHERE id = ${key.id}`), /CHECK|constraint/i, set);
    }
  });

  it('key_usage: requests and charges per key and UTC day, from the written logs; refused-by-limit requests not counted; pruning keeps it', async () => {
    const account = await store.createAccount('team', 10_000);
    const a = await store.createKey(newKey(account.id, 'a'));
    const b = await store.createKey(newKey(account.id, 'b'));
    const today = dayOf(Date.now());
    const at = (day: number, ms = 1000) => day * DAY_MS + ms;
    await store.write({
      logs: [
        log({ time: at(today - 40), accountId: account.id, keyId: a.id, cost: 1000 }),
        log({ time: at(today - 1), accountId: account.id, keyId: a.id, cost: 200 }),
        log({ time: at(today), accountId: account.id, keyId: a.id, cost: 30 }),
        log({ time: at(today, 5000), accountId: account.id, keyId: a.id, cost: 4, errorCode: 'upstream_error', status: 502 }),
        log({ time: at(today, 6000), accountId: account.id, keyId: a.id, cost: 0, errorCode: 'rate_limited', status: 429 }),
        log({ time: at(today, 7000), accountId: account.id, keyId: a.id, cost: 0, errorCode: 'ip_not_allowed', status: 403 }),
        log({ time: at(today), accountId: account.id, keyId: b.id, cost: 5 }),
        log({ time: at(today), cost: 0 }),
      ],
      keysUsed: new Map(),
    });
    await store.write({ logs: [log({ time: at(today, 9000), accountId: account.id, keyId: a.id, cost: 1 })], keysUsed: new Map() });
    const asked = (since: number) => store.keyUsage([{ keyId: a.id, since, day: today }, { keyId: b.id, since, day: today }, { keyId: 999_999, since, day: today }]);
    const total = await asked(0);
    assert.deepEqual(total.get(a.id), { spent: 1235, requests: 3 }, 'the day counts its requests (not the two refused by limits), all time its charges');
    assert.deepEqual(total.get(b.id), { spent: 5, requests: 1 });
    assert.deepEqual(total.get(999_999), { spent: 0, requests: 0 });
    assert.deepEqual((await asked(today)).get(a.id), { spent: 35, requests: 3 });
    assert.deepEqual((await asked(today - 1)).get(a.id), { spent: 235, requests: 3 });
    assert.deepEqual((await store.keyUsage([{ keyId: a.id, since: today - 1, day: today - 1 }])).get(a.id), { spent: 235, requests: 1 });
    assert.equal((await store.getAccount('team'))!.balance, 10_000 - 1240, 'the same batches debited the account');

    await store.pruneLogs(Date.now() + DAY_MS);
    assert.deepEqual((await asked(0)).get(a.id), { spent: 1235, requests: 3 }, 'a total limit outlives the logs');
    assert.equal(await store.deleteKey(a.id), true);
    assert.deepEqual((await asked(0)).get(a.id), { spent: 0, requests: 0 }, "a deleted key's usage goes with it");
  });
});

describe("keys' limits: the migration from a schema without them", () => {
  // A database as the previous version left it: every migration before the keys' limits, a key and its logs.
  const oldRows = (no: string): string[] => [
    "INSERT INTO accounts (id, name, balance, total_spent, created_at) VALUES (1, 'team', 1000, 60, 0)",
    "INSERT INTO api_keys (id, account_id, name, key_hash, key_prefix, created_at, rpm, concurrency) VALUES (7, 1, 'k', 'h', 'sk-…', 0, 5, 2)",
    ...[
      [1 * DAY_MS + 5, 10, null], [1 * DAY_MS + 9, 20, 'rate_limited'], [3 * DAY_MS, 30, null],
    ].map(([time, cost, code]) => `INSERT INTO request_logs (time, request_id, method, path, account_id, key_id, key_name, status, error_code, prompt_tokens, completion_tokens, usage_estimated, cost, latency_ms, stream)
         VALUES (${time}, 'r${time}', 'POST', '/v1/chat/completions', 1, 7, 'k', 200, ${code === null ? 'NULL' : `'${code}'`}, 1, 1, ${no}, ${cost}, 1, ${no})`),
  ];

  const check = async (store: Store): Promise<void> => {
    const key = (await store.listKeys())[0]!;
    assert.deepEqual([key.rpm, key.concurrency, key.tpm, key.rpd, key.spendLimit, key.spendPeriod, key.allowIps], [5, 2, 0, 0, null, 'total', null]);
    assert.deepEqual((await store.keyUsage([{ keyId: 7, since: 0, day: 1 }])).get(7), { spent: 60, requests: 1 }, 'filled from the logs kept');
    assert.deepEqual((await store.keyUsage([{ keyId: 7, since: 2, day: 3 }])).get(7), { spent: 30, requests: 1 });
  };

  it('SQLite: the old keys get no extra limits and key_usage is filled from the logs', async () => {
    const { MIGRATIONS } = await import('../../../src/gateway/store/migrations.ts');
    const dir = tempDir();
    try {
      const db = new DatabaseSync(`${dir}/gateway.db`);
      db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      const limits = MIGRATIONS.find((m) => m.sql.includes('key_usage'))!.version;
      for (const m of MIGRATIONS.filter((m) => m.version < limits)) {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(m.version);
      }
      for (const row of oldRows('0')) db.exec(row);
      db.close();
      const store = openStore({ dataDir: dir });
      try {
        await check(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: the same', async () => {
    const { POSTGRES_MIGRATIONS } = await import('../../../src/gateway/store/postgresMigrations.ts');
    const url = await freshDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      const limits = POSTGRES_MIGRATIONS.find((m) => m.sql.includes('key_usage'))!.version;
      for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version < limits)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [m.version]);
      }
      for (const row of oldRows('false')) await client.query(row);
    } finally {
      await client.end();
    }
    const store = await openAnyStore({ databaseUrl: url, env: { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') } });
    try {
      await check(store);
    } finally {
      await store.close();
    }
  });
});
