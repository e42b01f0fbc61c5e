// The SQLite store's log batches, written by a thread of their own on a connection of its own:
// committed whole or not at all, applied once per batch id (a retry after a commit whose answer
// was lost), and invisible to the request path's change check, which still sees what any other
// connection changes in the catalog (migration 21's catalog_version).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openStore } from '../../../src/gateway/store/index.ts';
import { SqliteLogThread } from '../../../src/gateway/store/sqliteLogThread.ts';
import type { RequestLog, Store, WriteBatch } from '../../../src/gateway/store/types.ts';
import { tempDir } from '../gateway/helpers.ts';

const { DatabaseSync: Database } = process.getBuiltinModule('node:sqlite');

function log(overrides: Partial<RequestLog>): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: null, stream: false, ...overrides,
  };
}

/** What another connection (the CLI's) reads: balance and spent of `team`, its key's last use, the log rows. */
function seen(db: DatabaseSync): { balance: number; spent: number; lastUsed: number | null; logs: number } {
  const account = db.prepare("SELECT balance, total_spent FROM accounts WHERE name = 'team'").get() as { balance: number; total_spent: number };
  const key = db.prepare('SELECT last_used_at FROM api_keys').get() as { last_used_at: number | null };
  const logs = db.prepare('SELECT COUNT(*) AS n FROM request_logs').get() as { n: number };
  return { balance: account.balance, spent: account.total_spent, lastUsed: key.last_used_at, logs: logs.n };
}

/** The change check once it asks SQLite itself (past its 250 ms trust in "no file event"). */
async function changedPastRecheck(store: Store): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return store.changedSinceLastCheck();
}

describe('SQLite log batches on their own thread', () => {
  let dir: string;
  let file: string;
  let store: Store;
  let other: DatabaseSync;
  let accountId: number;
  let keyId: number;

  beforeEach(async () => {
    dir = tempDir();
    file = join(dir, 'gateway.db');
    store = openStore({ dataDir: dir });
    accountId = (await store.createAccount('team', 10_000)).id;
    keyId = (await store.createKey({ accountId, name: 'k', hash: 'h'.repeat(64), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0 })).id;
    other = new Database(file);
    other.exec('PRAGMA busy_timeout = 5000');
  });

  afterEach(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits a batch on its own connection, applies a batch id once, and refuses a batch whole with the database\'s reason', async () => {
    const thread = SqliteLogThread.find(file);
    assert.ok(thread, 'the worker script is found beside its module');
    try {
      const batch: WriteBatch = { id: 'batch-1', logs: [log({ accountId, keyId, keyName: 'k', cost: 300 }), log({ accountId, keyId, keyName: 'k', cost: 200 })], keysUsed: new Map([[keyId, 1234]]) };
      await thread.write(batch);
      assert.deepEqual(seen(other), { balance: 9_500, spent: 500, lastUsed: 1234, logs: 2 });
      await thread.write(batch);
      assert.deepEqual(seen(other), { balance: 9_500, spent: 500, lastUsed: 1234, logs: 2 }, 'the retried batch changed nothing');

      const tooMuch: WriteBatch = { id: 'batch-2', logs: [log({ accountId, cost: 1 }), log({ accountId, cost: 9_007_199_254_740_991 })], keysUsed: new Map([[keyId, 5678]]) };
      await assert.rejects(thread.write(tooMuch), /above \$1,000,000,000 is refused/);
      assert.deepEqual(seen(other), { balance: 9_500, spent: 500, lastUsed: 1234, logs: 2 }, 'nothing of the refused batch is applied');
      await thread.write({ id: 'batch-3', logs: [log({ accountId, cost: 1 })], keysUsed: new Map() });
      assert.deepEqual(seen(other), { balance: 9_499, spent: 501, lastUsed: 1234, logs: 3 }, 'the thread goes on after a refusal');
    } finally {
      await thread.close();
    }
  });

  it('the store\'s batches do not count as catalog changes; another connection\'s top-up, key change, price and channel do', async () => {
    store.changedSinceLastCheck();
    await store.write({ id: 'b', logs: [log({ accountId, keyId, keyName: 'k', cost: 40 })], keysUsed: new Map([[keyId, Date.now()]]) });
    assert.deepEqual(seen(other).logs, 1, 'written (by the thread)');
    assert.equal(await changedPastRecheck(store), false, 'a debit and a key\'s last use are no change to reload for');
    await store.write({ id: 'c', logs: [], keysUsed: new Map([[keyId, 1]]) });
    assert.equal(await changedPastRecheck(store), false, 'an older last use changes no row');

    const changes: ReadonlyArray<readonly [string, string]> = [
      ['a top-up', "UPDATE accounts SET balance = balance + 5 WHERE name = 'team'"],
      ['a key disabled', "UPDATE api_keys SET status = 'disabled'"],
      ['a price', "INSERT INTO models (name, input_price, output_price) VALUES ('m2', 1, 2)"],
      ['a channel removed', 'DELETE FROM channels'],
      ['a setting', `INSERT INTO gateway_settings (name, value, updated_at) VALUES ('sign_up', '"open"', 1)`],
    ];
    await store.addChannel({ name: 'up', type: 'echo', baseUrl: null, apiKey: null, models: { m: 'm' }, priority: 0, weight: 1, timeoutMs: 1000, proxy: null });
    for (const [what, sql] of changes) {
      store.changedSinceLastCheck();
      other.exec(sql);
      assert.equal(await changedPastRecheck(store), true, `${what} by another connection is seen`);
    }
  });
});
