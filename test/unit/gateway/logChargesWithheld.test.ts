import assert from 'node:assert/strict';
import { CHARGE_WITHHELD, describeWithheld, withholdCharges } from '../../../src/gateway/logChargesWithheld.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';

const row = (requestId: string, accountId: number | null, cost: number, errorCode: string | null = null): RequestLog => ({
  time: 1, requestId, method: 'POST', path: '/v1/chat/completions', accountId, keyId: 1, keyName: 'k', model: 'm', channel: 'c', status: 200,
  errorCode, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost, latencyMs: 1, firstByteMs: 1, stream: false,
});

describe('charges withheld from a batch its accounts can no longer pay', () => {
  it('cuts each account down to what it can pay, newest request first, and marks the rows cut', () => {
    const logs = [row('a1', 1, 30), row('b1', 2, 50), row('a2', 1, 30, 'client_aborted'), row('a3', 1, 30), row('n', null, 0)];
    const { batch, accounts } = withholdCharges({ id: 'batch', logs, keysUsed: new Map([[1, 1]]) }, new Map([[1, 40], [2, 100]]));
    assert.equal(batch.id, 'batch', 'the same batch id: the refused write changed nothing');
    assert.deepEqual(batch.logs.map((l) => [l.requestId, l.cost, l.errorCode]), [
      ['a1', 30, null], ['b1', 50, null], ['a2', 10, 'client_aborted'], ['a3', 0, CHARGE_WITHHELD], ['n', 0, null],
    ]);
    assert.equal(batch.logs.filter((l) => l.accountId === 1).reduce((s, l) => s + l.cost, 0), 40, 'exactly what the account can pay');
    assert.deepEqual([...accounts], [[1, { amount: 50, requests: 2 }]]);
    assert.equal(logs[3]!.cost, 30, 'the refused batch\'s rows are left as they were');
  });

  it('an account that can pay nothing has every charge withheld; one missing from the answer counts as nothing', () => {
    const { batch, accounts } = withholdCharges({ logs: [row('x', 7, 5), row('y', 8, 6)], keysUsed: new Map() }, new Map([[7, 0]]));
    assert.deepEqual(batch.logs.map((l) => l.cost), [0, 0]);
    assert.deepEqual([...accounts.keys()], [8, 7]);
    assert.match(describeWithheld(7, accounts.get(7)!), /^request logs: account 7 could not pay \$0\.000005 of 1 answered request\(s\)/);
  });
});
