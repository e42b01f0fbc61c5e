// Keys' usage on the request path (accounts/keyUsage.ts), on a memory store with the gateway's own log
// writer and serial queue: a key's state is loaded from the store plus what was logged and not yet written;
// holds count against the limit while in flight and settle to the charge; with re-reads (several instances),
// what another instance wrote is added and this instance's own writes are not counted twice; a new UTC day
// starts from the store's numbers of that day; a key that lost its limits is dropped.
import assert from 'node:assert/strict';
import { Ledger } from '../../../src/gateway/accounts/ledger.ts';
import { KeyUsage, type KeyState } from '../../../src/gateway/accounts/keyUsage.ts';
import { LogWriter } from '../../../src/gateway/logs.ts';
import { Serial } from '../../../src/gateway/serial.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { DAY_MS } from '../../../src/gateway/store/keySettings.ts';
import type { KeyRecord, RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { poll } from '../../support/poll.ts';

const NOW = Date.UTC(2026, 4, 10, 12);

function log(key: KeyRecord, cost: number, time = NOW): RequestLog {
  return {
    time, requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: key.accountId, keyId: key.id, keyName: key.name,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost, latencyMs: 1, firstByteMs: null, stream: false,
  };
}

describe("keys' usage in memory", () => {
  let store: Store;
  let logs: LogWriter;
  let serial: Serial;
  let now: number;
  let key: KeyRecord;
  const usageWith = (refreshMs = 0) => new KeyUsage(store, { serial: (job) => serial.run(job), unwritten: (id, since, day) => logs.unwritten(id, since, day), clock: () => now, refreshMs });
  const stateOf = async (usage: KeyUsage, k: KeyRecord = key): Promise<KeyState> => usage.state(k);

  beforeEach(async () => {
    now = NOW;
    store = openStore({ inMemory: true });
    serial = new Serial();
    logs = new LogWriter(store, new Ledger(), serial, () => undefined);
    const account = await store.createAccount('team', 1_000_000);
    key = await store.createKey({ accountId: account.id, name: 'k', hash: 'h'.repeat(64), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0, limits: { spendLimit: 1000, spendPeriod: 'day', rpd: 10 } });
  });
  afterEach(async () => {
    await logs.close();
    await store.close();
  });

  it("loads the store's usage of the period and day plus what is logged but not written yet, once", async () => {
    await store.write({ logs: [log(key, 300), log(key, 5, NOW - DAY_MS)], keysUsed: new Map() });
    logs.record(log(key, 50), key.id); // queued: not in the store yet
    const usage = usageWith();
    const s = await stateOf(usage);
    assert.deepEqual([s.spent, s.requests], [350, 2], "today's charges and requests, yesterday's not");
    assert.equal(usage.state(key), s, 'then at hand, no promise');
    await logs.flush();
    assert.equal(s.spent, 350, 'the queued charge, now written, is not counted twice');
  });

  it('a hold counts against the limit while in flight and settles to the charge; a new UTC day starts afresh', async () => {
    const usage = usageWith();
    const s = await stateOf(usage);
    const hold = usage.hold(key, s);
    hold.hold(400);
    assert.equal(hold.left(), 600);
    hold.release(400, 120);
    assert.deepEqual([s.spent, s.reserved, hold.left()], [120, 0, 880]);
    assert.equal(usage.admit(key, s), null);
    assert.equal(s.requests, 1);
    now = NOW + DAY_MS;
    const next = await stateOf(usage);
    assert.deepEqual([next.spent, next.requests], [0, 0], 'the store has nothing for the new day');
  });

  it("re-reads add what others wrote, never this instance's own writes twice", async () => {
    const usage = usageWith(20);
    logs.onWritten = (written) => usage.written(written);
    usage.start();
    try {
      const s = await stateOf(usage);
      // Our own request: held, settled, logged and written through the log writer.
      const hold = usage.hold(key, s);
      hold.hold(100);
      hold.release(100, 70);
      logs.record(log(key, 70), key.id);
      await logs.flush();
      // Another instance's batch, straight into the shared store.
      await store.write({ logs: [log(key, 200), log(key, 0)], keysUsed: new Map() });
      await poll('the re-read', () => (s.spent === 270 ? true : undefined), 2000, 10);
      assert.equal(s.requests, 2, "the other's two requests (ours were never admitted here)");
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(s.spent, 270, 'still exact after more re-reads');
    } finally {
      await usage.close();
    }
  });

  it('drops the state of a key that lost its limits; limits given again load afresh', async () => {
    const usage = usageWith();
    const s = await stateOf(usage);
    s.spent = 999; // what a stale state would wrongly keep
    const unlimited = { ...key, spendLimit: null, rpd: 0 };
    usage.keysChanged([unlimited], null);
    await store.write({ logs: [log(key, 40)], keysUsed: new Map() });
    const again = await stateOf(usage);
    assert.notEqual(again, s);
    assert.equal(again.spent, 40);
  });

  it('after a reload of only what was written, keeps the state of the keys not in it and drops the ones deleted or unlimited', async () => {
    const usage = usageWith();
    const s = await stateOf(usage);
    usage.keysChanged([{ ...key, id: key.id + 1, spendLimit: null, rpd: 0 }], []);
    assert.equal(await stateOf(usage), s, 'another key written: this one is as it was');
    usage.keysChanged([], [key.id]);
    const afterDelete = await stateOf(usage);
    assert.notEqual(afterDelete, s, 'deleted: its state went');
    usage.keysChanged([{ ...key, spendLimit: null, rpd: 0 }], []);
    assert.notEqual(await stateOf(usage), afterDelete, 'written without limits: its state went');
  });
});
