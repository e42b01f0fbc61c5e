import assert from 'node:assert/strict';
import { computeBalance, UNLIMITED_USD } from '../../../src/client/index.ts';

describe('client computeBalance (billing endpoints -> Balance)', () => {
  it('keeps every micro-dollar: a chat that cost $0.000038 shows in used and remaining', () => {
    // total_usage is in cents: 0.0038 cents = $0.000038 = 38 micro-dollars.
    assert.deepEqual(computeBalance(10, 0.0038), { remainingUsd: 9.999962, usedUsd: 0.000038, limitUsd: 10, unlimited: false });
  });

  it('drops float noise below the micro-dollar', () => {
    assert.deepEqual(computeBalance(0.1 + 0.2, 10), { remainingUsd: 0.2, usedUsd: 0.1, limitUsd: 0.3, unlimited: false });
  });

  it('reads a huge hard limit as unlimited', () => {
    assert.deepEqual(computeBalance(UNLIMITED_USD, 100), { remainingUsd: null, usedUsd: 1, limitUsd: null, unlimited: true });
  });
});
