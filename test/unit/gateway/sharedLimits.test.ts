// The policy of key limits shared across instances (accounts/sharedLimits.ts) over a store seam that stands
// for PostgreSQL with no other instance: what a request waiting for an exchange is told.
import assert from 'node:assert/strict';
import { SharedLimits } from '../../../src/gateway/accounts/sharedLimits.ts';
import type { KeyClaim, KeyLimitStore, OthersClaims } from '../../../src/gateway/store/types.ts';

/** No other instance; each exchange takes `delayMs` (a database slower than the claims' trust window, or not). */
function aloneOnDatabase(delayMs: number): KeyLimitStore {
  return {
    instance: 'unit',
    async exchange(_window: number, _keys: readonly number[], _liveMs: number, decide: (others: ReadonlyMap<number, OthersClaims>) => KeyClaim[]) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      decide(new Map());
    },
    forget: async () => undefined,
    sweep: async () => undefined,
  };
}

describe('key limits shared across instances', () => {
  it('admits a request under the key limits once an exchange has claimed a share', async () => {
    const limits = new SharedLimits(aloneOnDatabase(5), () => undefined);
    assert.equal(await limits.acquire(1, 4), true);
    assert.equal(await limits.take(1, 60), 0);
    limits.release(1);
  });

  it('an exchange that commits after its claims went stale says the limits could not be shared, not that the key is over them', async function () {
    this.timeout(10_000);
    const lines: string[] = [];
    const limits = new SharedLimits(aloneOnDatabase(2_300), (line) => lines.push(line));
    assert.equal(await limits.acquire(1, 4), 'unavailable', 'a 429 would blame a key that is far under its limit');
    assert.equal(await limits.take(1, 60), 'unavailable');
  });
});
