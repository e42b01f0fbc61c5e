// Balance leases in the PostgreSQL store (store/postgresLeases.ts, postgresBatch.ts), several store
// instances on one database standing for several gateway processes: takes never move more than is
// available, whatever their concurrency; a log batch settles from its writer's lease; a writer cannot
// spend another's lease; hand-backs and the reclaim of expired leases return exactly what was held.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresStore } from '../../../src/gateway/store/postgres.ts';
import { SecretBox } from '../../../src/gateway/store/secretBox.ts';
import { StoreError, type RequestLog } from '../../../src/gateway/store/types.ts';
import { freshDatabase } from '../../support/postgres.ts';

async function accountRow(url: string, name: string): Promise<{ balance: number; leased: number; spent: number; inLeases: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT balance::float8 AS balance, leased::float8 AS leased, total_spent::float8 AS spent,
              (SELECT COALESCE(SUM(amount), 0)::float8 FROM leases WHERE account_id = a.id) AS in_leases
         FROM accounts a WHERE name = $1`, [name]);
    const r = rows[0] as Record<string, number>;
    return { balance: r.balance!, leased: r.leased!, spent: r.spent!, inLeases: r.in_leases! };
  } finally {
    await client.end();
  }
}

function charge(accountId: number, cost: number): RequestLog {
  return {
    time: Date.now(), requestId: `r-${randomBytes(6).toString('hex')}`, method: 'POST', path: '/v1/chat/completions', accountId, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost, latencyMs: 1, firstByteMs: 1, stream: false,
  };
}

describe('balance leases in the PostgreSQL store', () => {
  const opened: PostgresStore[] = [];
  const open = async (url: string): Promise<PostgresStore> => {
    const store = await PostgresStore.open(url, SecretBox.fromEnv({ MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') }));
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('never leases more than is available, whatever the concurrency of takes from several instances', async () => {
    const url = await freshDatabase();
    const instances = await Promise.all([open(url), open(url), open(url), open(url)]);
    const account = await instances[0]!.createAccount('team', 1_000);
    // 24 takes of 150 at once against 1,000: exactly 1,000 can be granted, never a unit more.
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => instances[i % 4]!.leases.take(account.id, () => 150, 60_000)));
    const granted = results.reduce((sum, r) => sum + r!.granted, 0);
    assert.equal(granted, 1_000);
    assert.deepEqual(await accountRow(url, 'team'), { balance: 1_000, leased: 1_000, spent: 0, inLeases: 1_000 });
    assert.equal((await instances[0]!.leases.take(account.id, (available) => available, 60_000))!.granted, 0, 'nothing left to take');
    assert.equal(await instances[0]!.leases.take(999_999, () => 1, 60_000), null, 'no such account');
  });

  it('settles a log batch from its writer\'s lease; a writer cannot spend another\'s lease; hand-backs return exactly what is held', async () => {
    const url = await freshDatabase();
    const [a, b] = [await open(url), await open(url)];
    const account = await a.createAccount('team', 1_000);
    await a.leases.take(account.id, () => 600, 60_000);
    await b.leases.take(account.id, () => 400, 60_000);

    await a.write({ logs: [charge(account.id, 250), charge(account.id, 50)], keysUsed: new Map() });
    assert.deepEqual(await accountRow(url, 'team'), { balance: 700, leased: 700, spent: 300, inLeases: 700 }, 'the charge left the balance and A\'s lease together');
    assert.deepEqual(await a.leases.renew(60_000), new Map([[account.id, 300]]));

    // A holds 300; the other 400 are B's: a batch of A's charging 350 would spend B's lease, and is refused whole.
    await assert.rejects(a.write({ logs: [charge(account.id, 350)], keysUsed: new Map() }), (e: unknown) => e instanceof StoreError && e.code === 'invalid');
    assert.deepEqual(await accountRow(url, 'team'), { balance: 700, leased: 700, spent: 300, inLeases: 700 });

    assert.equal(await a.leases.giveBack(account.id, 100), 100);
    assert.equal(await a.leases.giveBack(account.id, 'all'), 200);
    assert.equal(await b.leases.giveBackAll(), 400);
    assert.deepEqual(await accountRow(url, 'team'), { balance: 700, leased: 0, spent: 300, inLeases: 0 });
    // With no lease, a charge comes from available money.
    await b.write({ logs: [charge(account.id, 100)], keysUsed: new Map() });
    assert.deepEqual(await accountRow(url, 'team'), { balance: 600, leased: 0, spent: 400, inLeases: 0 });
  });

  it('a hand-back that waited for the account\'s lock returns what the lease holds then, not what it held before', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const account = await store.createAccount('team', 1_000);
    assert.equal((await store.leases.take(account.id, () => 100, 60_000))!.granted, 100);
    // Another transaction of the same instance (a take) holds the account's lock and adds 200 to the lease...
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [account.id]);
      await other.query('UPDATE accounts SET leased = leased + 200 WHERE id = $1', [account.id]);
      await other.query('UPDATE leases SET amount = amount + 200 WHERE instance = $1 AND account_id = $2', [store.leases.instance, account.id]);
      // ...while the hand-back of all of it waits for that lock; then the take commits.
      const handBack = store.leases.giveBack(account.id, 'all');
      await new Promise((r) => setTimeout(r, 200));
      await other.query('COMMIT');
      assert.equal(await handBack, 300, 'all of the lease as it is once the lock is had');
    } finally {
      await other.end();
    }
    assert.deepEqual(await accountRow(url, 'team'), { balance: 1_000, leased: 0, spent: 0, inLeases: 0 }, 'leased equals the sum of the leases');
  });

  it('a process frozen inside a transaction holds the account\'s lock only until the server ends its session (10 s), not for good', async function () {
    this.timeout(60_000);
    const url = await freshDatabase();
    const store = await open(url);
    const account = await store.createAccount('team', 1_000);
    const frozen = spawn(process.execPath, [join(import.meta.dirname, '../../fixtures/frozenInTransaction.ts'), url, String(account.id)], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        frozen.stdout.on('data', (d: Buffer) => (d.toString().includes('locked') ? resolve() : undefined));
        frozen.on('exit', (code) => reject(new Error(`the frozen process exited (${code})`)));
      });
      // Waits for the frozen process's lock: the server ends that idle transaction, and this goes through.
      assert.equal((await store.leases.take(account.id, () => 300, 60_000))!.granted, 300);
      assert.deepEqual(await accountRow(url, 'team'), { balance: 1_000, leased: 300, spent: 0, inLeases: 300 }, 'the frozen take rolled back whole');
    } finally {
      frozen.kill('SIGKILL');
    }
  });

  it('reclaims expired leases (a dead instance\'s) and only those, by the database clock', async () => {
    const url = await freshDatabase();
    const [dead, live] = [await open(url), await open(url)];
    const account = await dead.createAccount('team', 1_000);
    await dead.leases.take(account.id, () => 300, 1);
    await live.leases.take(account.id, () => 200, 60_000);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(await live.leases.reclaimExpired(), 300);
    assert.deepEqual(await accountRow(url, 'team'), { balance: 1_000, leased: 200, spent: 0, inLeases: 200 });
    assert.deepEqual(await dead.leases.renew(60_000), new Map(), 'the dead instance finds its lease gone');
    assert.equal(await live.leases.reclaimExpired(), 0, 'a live lease is not reclaimed');
    // A charge of the reclaimed instance still settles, from available money (and never below what leases hold).
    await dead.write({ logs: [charge(account.id, 50)], keysUsed: new Map() });
    assert.deepEqual(await accountRow(url, 'team'), { balance: 950, leased: 200, spent: 50, inLeases: 200 });
  });

  it('re-reads only the accounts written since the last read, and never misses a write that commits after it', async () => {
    const url = await freshDatabase();
    const [a, b] = [await open(url), await open(url)];
    const ids: number[] = [];
    for (const name of ['one', 'two', 'three', 'four']) ids.push((await a.createAccount(name, 1_000)).id);
    const [one, two, three, four] = ids as [number, number, number, number];
    const names = (accounts: { name: string }[]) => accounts.map((x) => x.name);

    const first = await b.leases.changedAccounts(null);
    assert.deepEqual(names(first.accounts), ['one', 'two', 'three', 'four'], 'the first read has every account');

    // A's charge to "two", and a lease of "three" (a write of `leased` only): those two, with their new numbers.
    await a.write({ logs: [charge(two, 40)], keysUsed: new Map() });
    await a.leases.take(three, () => 100, 60_000);
    const second = await b.leases.changedAccounts(first.horizon);
    assert.deepEqual(second.accounts.map((x) => [x.name, x.balance, x.totalSpent]), [['two', 960, 40], ['three', 1_000, 0]]);
    assert.deepEqual(names((await b.leases.changedAccounts(second.horizon)).accounts), [], 'nothing written since');

    // A write still open while a read runs (an operator's top-up in a long transaction): that read cannot see it,
    // and a read that took the newest write id it had seen as its start would skip it for good once it commits.
    const operator = new pg.Client({ connectionString: url });
    await operator.connect();
    try {
      await operator.query('BEGIN');
      await operator.query('UPDATE accounts SET balance = balance + 500 WHERE id = $1', [four]);
      await a.write({ logs: [charge(one, 10)], keysUsed: new Map() });
      const third = await b.leases.changedAccounts(second.horizon);
      assert.deepEqual(third.accounts.map((x) => [x.name, x.balance]), [['one', 990]], 'the open write is not seen yet');
      await operator.query('COMMIT');
      const fourth = await b.leases.changedAccounts(third.horizon);
      assert.ok(fourth.accounts.some((x) => x.name === 'four' && x.balance === 1_500), `the top-up that committed after the read is in the next: ${JSON.stringify(fourth.accounts)}`);
    } finally {
      await operator.end();
    }
  });
});
