// The policy of key limits shared across instances (accounts/sharedLimits.ts) over a store seam that stands
// for PostgreSQL with no other instance: what a request waiting for an exchange is told.
import assert from 'node:assert/strict';
import { SharedLimits } from '../../../src/gateway/accounts/sharedLimits.ts';
import type { KeyClaim, KeyLimitStore, OthersClaims } from '../../../src/gateway/store/instances.ts';

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

  it("a busy key's claim covers a tick of its rate: its requests do not wait for an exchange every few dozen", async () => {
    const limits = new SharedLimits(aloneOnDatabase(2), () => undefined);
    let waited = 0;
    // 25 requests every 10 ms (2,500 a second) for 40 bursts, on a key far under its limit.
    for (let burst = 0; burst < 40; burst++) {
      for (let i = 0; i < 25; i++) {
        const taken = limits.take(1, 10_000_000);
        if (typeof taken === 'object') waited++;
        assert.equal(await taken, 0);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Claims sized by what was asked since the last exchange alone (2x that) made 8 of these wait.
    assert.ok(waited <= 4, `${waited} of 1,000 requests waited for an exchange`);
    await limits.close();
  });

  it('an exchange that commits after its claims went stale says the limits could not be shared, not that the key is over them', async function () {
    this.timeout(10_000);
    const lines: string[] = [];
    const limits = new SharedLimits(aloneOnDatabase(2_300), (line) => lines.push(line));
    assert.equal(await limits.acquire(1, 4), 'unavailable', 'a 429 would blame a key that is far under its limit');
    assert.equal(await limits.take(1, 60), 'unavailable');
  });

  it('a request that waited for an exchange is not refused when requests arriving during its commit took the share and the key has room', async () => {
    // Each decision is made inside the lock, then the commit takes 20 ms: requests arriving meanwhile are admitted in memory
    // from the new claims (the previous exchange's trust window still runs).
    const decisions: (() => void)[] = [];
    const nextDecision = (): Promise<void> => new Promise((resolve) => decisions.push(resolve));
    const store: KeyLimitStore = {
      ...aloneOnDatabase(0),
      async exchange(_window, _keys, _liveMs, decide) {
        decide(new Map());
        decisions.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    };
    const limits = new SharedLimits(store, () => undefined);
    assert.equal(await limits.acquire(1, 100), true);
    for (let i = 0; i < 4; i++) assert.equal(await limits.take(1, 1_000), 0);
    const decided = nextDecision();
    const waitingSlot = limits.acquire(1, 100);
    const waitingRequest = limits.take(1, 1_000);
    await decided;
    // That exchange claimed 1 more slot and 8 more requests for the waiters; these take them first.
    assert.equal(await limits.acquire(1, 100), true);
    for (let i = 0; i < 8; i++) assert.equal(await limits.take(1, 1_000), 0);
    assert.equal(await waitingSlot, true, '3 in flight with a concurrency of 100: a 429 concurrency_limited would be wrong');
    assert.equal(await waitingRequest, 0, '14 requests of 1,000 a minute: a 429 rate_limited would be wrong');
  });
});
