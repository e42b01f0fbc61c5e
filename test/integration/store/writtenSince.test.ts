// The catalogue's reload reads only what was written since its last one (store/writtenSince.ts): a
// snapshot from a cursor holds the accounts and keys written since, and the keys deleted since, and
// nothing else; a key's last use alone is not a write of it. SQLite and PostgreSQL stamp their rows;
// memory has no stamps and always answers whole, which the catalogue takes as a whole reload.
import assert from 'node:assert/strict';
import pg from 'pg';
import type { NewKey, RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { Catalog } from '../../../src/gateway/catalog.ts';
import { Ledger } from '../../../src/gateway/accounts/ledger.ts';
import { Serial } from '../../../src/gateway/serial.ts';
import { hashKey } from '../../../src/gateway/keys.ts';
import { describeEachStore } from '../../support/stores.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { PostgresStore } from '../../../src/gateway/store/postgres.ts';
import { SecretBox } from '../../../src/gateway/store/secretBox.ts';
import { randomBytes } from 'node:crypto';

function newKey(accountId: number, name: string, secret = name): NewKey {
  return { accountId, name, hash: hashKey(secret), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0 };
}

function charge(accountId: number, keyId: number): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId, keyId, keyName: 'k',
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 1, latencyMs: 1, firstByteMs: null, stream: false,
  };
}

/** Ids in id order (a store may answer in the order rows were written). */
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
const byId = <T extends { id: number }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => a.id - b.id);

describeEachStore('snapshots since a cursor', (current, name) => {
  let store: Store;
  beforeEach(() => ({ store } = current()));

  it(name === 'memory' ? 'memory answers whole, without a cursor' : 'holds the accounts and keys written since, and the keys deleted since; a last use alone is not a write', async () => {
    const team = await store.createAccount('team', 1_000);
    const other = await store.createAccount('other', 0);
    const [k1, k2, k3, k4] = [await store.createKey(newKey(team.id, 'k1')), await store.createKey(newKey(team.id, 'k2')), await store.createKey(newKey(other.id, 'k3')), await store.createKey(newKey(other.id, 'k4'))];
    const whole = await store.snapshot();
    assert.deepEqual([ids(whole.accounts), ids(whole.keys), whole.removedKeys], [[team.id, other.id], [k1.id, k2.id, k3.id, k4.id], undefined]);
    if (name === 'memory') {
      assert.equal(whole.cursor, undefined);
      assert.equal((await store.snapshot('anything')).removedKeys, undefined, 'a whole snapshot again');
      return;
    }
    assert.equal(typeof whole.cursor, 'string');

    await store.setKeyStatus(k1.id, 'disabled');
    const k5 = await store.createKey(newKey(team.id, 'k5'));
    await store.deleteKey(k3.id);
    await store.topUp('other', 5);
    // A log batch: team's debit is a write of team; k4's last use is not a write of k4.
    await store.write({ logs: [charge(team.id, k4.id)], keysUsed: new Map([[k4.id, Date.now()]]) });

    const since = await store.snapshot(whole.cursor);
    assert.deepEqual(ids(since.keys), [k1.id, k5.id]);
    assert.equal(byId(since.keys)[0]!.status, 'disabled');
    assert.deepEqual(since.removedKeys, [k3.id]);
    assert.deepEqual(byId(since.accounts).map((a) => [a.name, a.balance]), [['team', 999], ['other', 5]]);
    assert.ok(since.channels && since.models, 'channels and models are read whole');

    const nothing = await store.snapshot(since.cursor);
    assert.deepEqual([nothing.accounts, nothing.keys, nothing.removedKeys], [[], [], []]);
    await store.setKeySecret(k2.id, hashKey('k2-rotated'), 'sk-…');
    assert.deepEqual(ids((await store.snapshot(nothing.cursor)).keys), [k2.id], 'a rotation is a write');
  });

  it('the catalogue, reloading (only what was written, where the store stamps): a rotated key\'s old secret, a deleted key and a disabled one stop at once', async () => {
    const team = await store.createAccount('team', 1_000);
    const [a, b, c] = [await store.createKey(newKey(team.id, 'a')), await store.createKey(newKey(team.id, 'b')), await store.createKey(newKey(team.id, 'c'))];
    const ledger = new Ledger({ leased: name === 'postgres' });
    const catalog = new Catalog(store, ledger, new Serial());
    await catalog.settled();
    assert.deepEqual(['a', 'b', 'c'].map((s) => catalog.keyBySecret(s)?.id), [a.id, b.id, c.id]);

    await store.setKeySecret(a.id, hashKey('a-new'), 'sk-…');
    await store.deleteKey(b.id);
    await store.setKeyStatus(c.id, 'disabled');
    await store.topUp('team', 7);
    await catalog.settled();
    assert.equal(catalog.keyBySecret('a'), undefined, 'the old secret of a rotated key');
    assert.equal(catalog.keyBySecret('a-new')?.id, a.id);
    assert.equal(catalog.keyBySecret('b'), undefined, 'a deleted key');
    assert.equal(catalog.keyBySecret('c')?.status, 'disabled');
    assert.equal(catalog.account(team.id)?.balance, 1_007);
    const d = await store.createKey(newKey(team.id, 'd'));
    await catalog.settled();
    assert.equal(catalog.keyBySecret('d')?.id, d.id, 'a new key');
  });
});

describe('snapshots since a cursor: postgres, a write still open while a snapshot is read', () => {
  it('is in the next snapshot once it commits, however late', async () => {
    const url = await freshDatabase();
    const store = await PostgresStore.open(url, SecretBox.fromEnv({ MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') }));
    const operator = new pg.Client({ connectionString: url });
    await operator.connect();
    try {
      const team = await store.createAccount('team', 0);
      const key = await store.createKey(newKey(team.id, 'k'));
      const first = await store.snapshot();
      await operator.query('BEGIN');
      await operator.query(`UPDATE api_keys SET status = 'disabled' WHERE id = $1`, [key.id]);
      // A later transaction commits first: the newest id seen would now start past the open one.
      const later = await store.createKey(newKey(team.id, 'later'));
      const during = await store.snapshot(first.cursor);
      assert.deepEqual(ids(during.keys), [later.id], 'the open write is not seen yet');
      await operator.query('COMMIT');
      const after = await store.snapshot(during.cursor);
      // (The later key again too: the open write held the horizon back. Read twice is harmless; missed is not.)
      assert.equal(after.keys.find((k) => k.id === key.id)?.status, 'disabled', JSON.stringify(after.keys));
    } finally {
      await operator.end();
      await store.close();
    }
  });
});
