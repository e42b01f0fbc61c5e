import assert from 'node:assert/strict';
import { storableLog } from '../../../src/gateway/storableLog.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';

const ROW: RequestLog = {
  time: 1, requestId: 'r', method: 'POST', path: '/v1/chat/completions', accountId: 1, keyId: 2, keyName: 'k', model: 'm', channel: 'c', status: 200,
  errorCode: null, promptTokens: 10, completionTokens: 20, usageEstimated: false, cost: 30, latencyMs: 4, firstByteMs: 1.5, stream: true, completionCap: null,
};

describe('storableLog', () => {
  it('gives the row itself when every measured number fits, and says nothing', () => {
    const said: string[] = [];
    assert.equal(storableLog(ROW, (_l, field) => said.push(field)), ROW);
    assert.equal(storableLog({ ...ROW, completionCap: undefined, firstByteMs: null }, (_l, field) => said.push(field)).completionCap, undefined);
    assert.deepEqual(said, []);
  });

  it('keeps a misfit as the nearest whole number in range, in a copy, and never touches money, ids or time', () => {
    const said: Array<[string, unknown, unknown]> = [];
    const row = { ...ROW, promptTokens: -5, completionTokens: 7.4, latencyMs: Number.NaN, completionCap: 0.2, cost: 30 };
    const kept = storableLog(row, (_l, field, came, keptAs) => said.push([field, came, keptAs]));
    assert.notEqual(kept, row);
    assert.deepEqual([kept.promptTokens, kept.completionTokens, kept.latencyMs, kept.completionCap], [0, 7, 0, 0]);
    assert.deepEqual([kept.cost, kept.accountId, kept.keyId, kept.time], [30, 1, 2, 1]);
    assert.equal(row.promptTokens, -5, 'the row as it came is not changed');
    assert.deepEqual(said.map(([field]) => field), ['promptTokens', 'completionTokens', 'latencyMs', 'completionCap']);
  });
});
