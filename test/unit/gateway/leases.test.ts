import assert from 'node:assert/strict';
import { Leases } from '../../../src/gateway/accounts/leases.ts';
import { Ledger, type ReservationPlan } from '../../../src/gateway/accounts/ledger.ts';
import type { LeaseStore, LeaseView } from '../../../src/gateway/store/instances.ts';
import type { AccountRecord } from '../../../src/gateway/store/types.ts';

/** One account's money as the database would hold it, with this instance's lease; counts takes. */
class FakeLeaseStore implements LeaseStore {
  readonly instance = 'me';
  takes = 0;
  failing = false;
  balance: number;
  leased: number;
  mine: number;
  constructor(balance: number, leased = 0, mine = 0) {
    this.balance = balance;
    this.leased = leased;
    this.mine = mine;
  }
  async take(_accountId: number, decide: (available: number, view: LeaseView) => number): Promise<{ granted: number; view: LeaseView }> {
    this.takes++;
    await new Promise((r) => setTimeout(r, 5));
    if (this.failing) throw new Error('connection refused');
    const view = { balance: this.balance, leased: this.leased, mine: this.mine };
    const granted = Math.max(0, Math.min(decide(this.balance - this.leased, view), this.balance - this.leased));
    this.leased += granted;
    this.mine += granted;
    return { granted, view };
  }
  async renew(): Promise<Map<number, number>> { return new Map([[1, this.mine]]); }
  async giveBack(_accountId: number, amount: number | 'all'): Promise<number> {
    const back = amount === 'all' ? this.mine : Math.min(amount, this.mine);
    this.mine -= back;
    this.leased -= back;
    return back;
  }
  async giveBackAll(): Promise<number> { return this.giveBack(1, 'all'); }
  async reclaimExpired(): Promise<number> { return 0; }
  async changedAccounts(): Promise<{ accounts: AccountRecord[]; horizon: string }> {
    return { accounts: [{ id: 1, name: 'team', balance: this.balance, totalSpent: 0, createdAt: 0 }], horizon: '1' };
  }
}

const fixed = (amount: number) => (available: number): ReservationPlan | null => (amount <= available ? { amount, maxCompletionTokens: null } : null);

function leasesOn(store: FakeLeaseStore): { leases: Leases; ledger: Ledger } {
  const ledger = new Ledger({ leased: true });
  ledger.load([{ id: 1, name: 'team', balance: store.balance, totalSpent: 0, createdAt: 0 }]);
  return { leases: new Leases(store, ledger, { serial: (job) => job(), log: () => undefined }), ledger };
}

describe('balance leases: the policy (accounts/leases.ts)', () => {
  it('spends nothing from the balance itself: the first request takes a lease, later ones reserve from it in memory', async () => {
    const store = new FakeLeaseStore(10_000);
    const { leases, ledger } = leasesOn(store);
    assert.equal(ledger.available(1), 0, 'a leased ledger starts with nothing to spend');
    const first = await leases.reserve(1, fixed(100));
    assert.ok(typeof first === 'object');
    assert.equal(store.takes, 1);
    const second = leases.reserve(1, fixed(100));
    assert.ok(typeof second === 'object' && !(second instanceof Promise), 'a request that fits the lease does not wait');
    assert.equal(store.takes, 1);
    assert.equal(ledger.available(1) + 200, store.mine, 'the ledger spends exactly the lease the store granted');
  });

  it('makes one take for the requests of an account that arrive while it runs', async () => {
    const store = new FakeLeaseStore(10_000);
    const { leases } = leasesOn(store);
    const held = await Promise.all(Array.from({ length: 10 }, () => leases.reserve(1, fixed(100))));
    assert.ok(held.every((h) => typeof h === 'object'));
    assert.equal(store.takes, 1);
  });

  it('takes beyond the need at most half of what is available, so other instances find a share', async () => {
    const store = new FakeLeaseStore(10_000);
    const { leases } = leasesOn(store);
    await leases.reserve(1, fixed(100));
    // About 5 s of the account's demand (100 asked in this second: 500), under half the available (5,000).
    assert.equal(store.mine, 500);
    const big = new FakeLeaseStore(1_000);
    await leasesOn(big).leases.reserve(1, fixed(400));
    assert.equal(big.mine, 500, 'half of 1,000, more than the need of 400');
  });

  it('refuses 403 when the balance cannot pay, 429 when other leases hold what would pay, 503 when the database is unreachable', async () => {
    assert.equal(await leasesOn(new FakeLeaseStore(50)).leases.reserve(1, fixed(100)), 'insufficient');
    const heldElsewhere = new FakeLeaseStore(1_000, 1_000);
    assert.equal(await leasesOn(heldElsewhere).leases.reserve(1, fixed(100)), 'in_use');
    assert.equal(heldElsewhere.mine, 0, 'nothing taken');
    const down = new FakeLeaseStore(1_000);
    down.failing = true;
    assert.equal(await leasesOn(down).leases.reserve(1, fixed(100)), 'unavailable');
  });

  it('hands every lease back on close, once requests have settled', async () => {
    const store = new FakeLeaseStore(10_000);
    const { leases, ledger } = leasesOn(store);
    const held = await leases.reserve(1, fixed(100));
    assert.ok(typeof held === 'object');
    ledger.settle(held.reservation, 0);
    await leases.close();
    assert.deepEqual([store.mine, store.leased, ledger.available(1)], [0, 0, 0]);
  });
});
