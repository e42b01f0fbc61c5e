// A log row whose measured numbers no column holds (a fraction of a token, 1e30 tokens, a negative latency,
// a cap past an int, NaN): on PostgreSQL it would make the database refuse the whole batch, and with it every
// charge of the moment (billing stops for everyone); on SQLite it would be written and then unreadable (the
// console's logs page fails on it). Through the real log writer, on every store: the row is kept in range and
// said once per field, the batch and the rows after it land and read back, and the charges are exact.
import assert from 'node:assert/strict';
import { Ledger, MAX_COMPLETION_CAP } from '../../../src/gateway/accounts/ledger.ts';
import { LogWriter } from '../../../src/gateway/logs.ts';
import { Serial } from '../../../src/gateway/serial.ts';
import { MAX_REPORTED_TOKENS } from '../../../src/gateway/relay/formats/usage.ts';
import type { AccountRecord, RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { STORES } from '../../support/stores.ts';

function log(account: AccountRecord, overrides: Partial<RequestLog>): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: account.id, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: 0.5, stream: false, completionCap: null, ...overrides,
  };
}

for (const { name, open } of STORES) {
  describe(`log rows with numbers no column holds are kept in range: ${name}`, function () {
    this.timeout(60_000);

    it('writes the batch, reads every row back, says each field once, and the charges equal the balance decrease', async () => {
      const { store, dispose } = await open();
      try {
        await misfitsLandIn(store);
      } finally {
        await store.close();
        dispose();
      }
    });
  });
}

async function misfitsLandIn(store: Store): Promise<void> {
  const account = await store.createAccount('team', 1_000_000);
  const ledger = new Ledger();
  ledger.load([account]);
  const notices: string[] = [];
  const failures: unknown[] = [];
  const writer = new LogWriter(store, ledger, new Serial(), (error) => failures.push(error), (line) => notices.push(line));
  /** A charge settled the way a request's is: reserved, then settled, then logged. */
  const charged = (cost: number): number => {
    const held = ledger.reserve(account.id, () => ({ amount: cost, maxCompletionTokens: null }))!;
    return ledger.settle(held.reservation, cost);
  };

  const odd = [
    log(account, { requestId: 'huge', promptTokens: 1e30, completionTokens: 2.5, latencyMs: -3, completionCap: 2 ** 40, firstByteMs: Number.NaN, cost: charged(700) }),
    log(account, { requestId: 'odd', promptTokens: Number.NaN, completionTokens: Number.POSITIVE_INFINITY, latencyMs: 1.6, status: 1e12, cost: charged(11) }),
  ];
  for (const row of odd) writer.record(row, null);
  writer.record(log(account, { requestId: 'fine', cost: charged(5) }), null);
  await writer.flush();
  writer.record(log(account, { requestId: 'after', cost: charged(3) }), null);
  await writer.close();

  assert.deepEqual(failures, [], 'no batch was refused');
  assert.equal(writer.durable, true);
  const rows = await store.requestLogs.list({ limit: 10 });
  const row = (id: string) => rows.find((l) => l.requestId === id)!;
  assert.deepEqual(rows.map((l) => l.requestId).sort(), ['after', 'fine', 'huge', 'odd']);
  const huge = row('huge');
  assert.deepEqual(
    [huge.promptTokens, huge.completionTokens, huge.latencyMs, huge.completionCap, huge.firstByteMs],
    [MAX_REPORTED_TOKENS, 3, 0, MAX_COMPLETION_CAP, null],
  );
  const odder = row('odd');
  assert.deepEqual([odder.promptTokens, odder.completionTokens, odder.latencyMs, odder.status], [0, MAX_REPORTED_TOKENS, 2, 999]);
  assert.deepEqual([row('fine').promptTokens, row('fine').firstByteMs], [1, 0.5], 'a row that fits is kept as it came');

  const fields = notices.map((line) => /its log's (\w+) was/.exec(line)?.[1]).filter(Boolean);
  assert.deepEqual(fields.sort(), ['completionCap', 'completionTokens', 'firstByteMs', 'latencyMs', 'promptTokens', 'status'], 'each field said once');
  assert.match(notices.find((line) => line.includes('promptTokens'))!, /^request huge: .*1e\+30.*kept as 1000000000/);

  const logged = rows.reduce((sum, l) => sum + l.cost, 0);
  assert.equal(logged, 719);
  assert.equal(account.balance - (await store.getAccount('team'))!.balance, logged, 'the balance fell by exactly the logged charges');
}
