// Redemption codes in the shared conformance suite: the same behaviour on memory, SQLite and PostgreSQL.
// A code is kept as its hash only; redeeming credits its value exactly once, in one step with the mark;
// used, expired, disabled and unknown codes are refused alike and change nothing; bad values are
// refused by the store, and by the database itself (raw SQL, as an operator could write it); and many
// redemptions of one code at once, through several connections or instances, credit it once.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { MAX_BALANCE_MICRO } from '../../../src/contract/index.ts';
import { codeStatus } from '../../../src/gateway/store/codeQuery.ts';
import { StoreError, type NewRedemptionCode, type Store } from '../../../src/gateway/store/types.ts';
import { describeEachStore, type StoreUnderTest, type RawSql } from '../../support/stores.ts';

/** How SQLite and PostgreSQL word a refused value: a CHECK constraint, or (PostgreSQL, BIGINT) no whole number at all. */
const REFUSED = /CHECK constraint failed|violates check constraint|invalid input syntax for type bigint/;
const storeError = (code: string) => (error: unknown) => error instanceof StoreError && error.code === code;
const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');
const newCode = (code: string, overrides: Partial<NewRedemptionCode> = {}): NewRedemptionCode => ({
  hash: hashOf(code), value: 5_000_000, batch: 'spring', expiresAt: null, createdBy: null, ...overrides,
});

describeEachStore('the Store interface, redemption codes', (current, name) => {
  let store: Store;
  let another: StoreUnderTest['another'];
  let raw: RawSql | null;
  beforeEach(() => ({ store, another, raw } = current()));

  it('makes codes with their hash only; redeeming credits exactly the value once, marking who and when; a second redemption changes nothing', async () => {
    const team = await store.createAccount('team', 1_000);
    const ada = await store.createUser({ name: 'ada', accountId: team.id, admin: true, passwordHash: 'x' });
    const made = await store.createCodes([newCode('A', { createdBy: ada.id }), newCode('B', { value: 1 })]);
    assert.deepEqual(made.map((c) => [c.hash, c.value, c.batch, c.createdBy, c.disabled, c.redeemedAt]), [
      [hashOf('A'), 5_000_000, 'spring', ada.id, false, null], [hashOf('B'), 1, 'spring', null, false, null],
    ]);
    assert.ok(made[0]!.id < made[1]!.id, 'in the order given');

    store.changedSinceLastCheck();
    const now = Date.now();
    const redeemed = await store.redeemCode(hashOf('A'), { accountId: team.id, userId: ada.id }, now);
    assert.ok(redeemed);
    assert.deepEqual([redeemed.account.balance, redeemed.code.redeemedAt, redeemed.code.redeemedAccountId, redeemed.code.redeemedUserId], [5_001_000, now, team.id, ada.id]);
    assert.equal(store.changedSinceLastCheck(), true, 'the request path sees the new balance, as after a top-up');
    assert.equal((await store.getAccount('team'))!.balance, 5_001_000);
    assert.equal((await store.snapshot()).accounts[0]!.balance, 5_001_000);

    const other = await store.createAccount('other', 0);
    store.changedSinceLastCheck();
    assert.equal(await store.redeemCode(hashOf('A'), { accountId: team.id, userId: ada.id }, now + 1), null, 'used');
    assert.equal(await store.redeemCode(hashOf('A'), { accountId: other.id, userId: null }, now + 1), null, 'used, by anyone');
    assert.equal(await store.redeemCode(hashOf('nope'), { accountId: team.id, userId: null }, now), null, 'unknown');
    assert.equal(store.changedSinceLastCheck(), false, 'a refused redemption changes nothing');
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.getAccount('other'))!.balance], [5_001_000, 0]);
    const listed = await store.listCodes({ now, limit: 10 });
    assert.deepEqual(listed.map((c) => [c.hash, codeStatus(c, now)]), [[hashOf('B'), 'unused'], [hashOf('A'), 'used']]);
  });

  it('refuses expired and disabled codes alike (null, nothing changed); disables by id and by batch, a used code staying used', async () => {
    const team = await store.createAccount('team', 0);
    const now = Date.now();
    const [soon, later, off, used] = await store.createCodes([
      newCode('soon', { expiresAt: now + 1000 }), newCode('later', { expiresAt: now + 10_000, batch: 'b2' }), newCode('off'), newCode('used', { batch: 'b2' }),
    ]);
    assert.equal(await store.redeemCode(soon!.hash, { accountId: team.id, userId: null }, now + 1000), null, 'expired at its expiry');
    assert.equal(await store.disableCodes({ id: off!.id }), 1);
    assert.equal(await store.disableCodes({ id: off!.id }), 0, 'already disabled');
    assert.equal(await store.redeemCode(off!.hash, { accountId: team.id, userId: null }, now), null, 'disabled');
    assert.ok(await store.redeemCode(used!.hash, { accountId: team.id, userId: null }, now));
    assert.equal(await store.disableCodes({ batch: 'b2' }), 1, 'only the unused one of the batch');
    assert.equal(await store.redeemCode(later!.hash, { accountId: team.id, userId: null }, now), null, 'disabled with its batch');
    await assert.rejects(store.disableCodes({ id: 999_999 }), storeError('not_found'));
    await assert.rejects(store.disableCodes({ batch: 'none' }), storeError('not_found'));
    assert.equal((await store.getAccount('team'))!.balance, 5_000_000, 'only the one good code credited');
    const byId = new Map((await store.listCodes({ now: now + 1000, limit: 10 })).map((c) => [c.id, codeStatus(c, now + 1000)]));
    assert.deepEqual([soon, later, off, used].map((c) => byId.get(c!.id)), ['expired', 'disabled', 'disabled', 'used']);
  });

  it('lists newest first, by batch and status, in pages', async () => {
    const team = await store.createAccount('team', 0);
    const now = Date.now();
    const made = await store.createCodes([
      newCode('1'), newCode('2', { batch: 'x' }), newCode('3', { expiresAt: now - 1 }), newCode('4', { batch: null }), newCode('5'),
    ]);
    await store.redeemCode(made[4]!.hash, { accountId: team.id, userId: null }, now);
    await store.disableCodes({ id: made[0]!.id });
    const ids = async (filter: Partial<Parameters<Store['listCodes']>[0]>) => (await store.listCodes({ now, limit: 100, ...filter })).map((c) => made.findIndex((m) => m.id === c.id) + 1);
    assert.deepEqual(await ids({}), [5, 4, 3, 2, 1]);
    assert.deepEqual(await ids({ batch: 'spring' }), [5, 3, 1]);
    assert.deepEqual(await ids({ status: 'unused' }), [4, 2]);
    assert.deepEqual(await ids({ status: 'used' }), [5]);
    assert.deepEqual(await ids({ status: 'expired' }), [3]);
    assert.deepEqual(await ids({ status: 'disabled' }), [1]);
    assert.deepEqual(await ids({ batch: 'spring', status: 'unused' }), []);
    assert.deepEqual(await ids({ limit: 2 }), [5, 4]);
    assert.deepEqual(await ids({ limit: 2, beforeId: made[3]!.id }), [3, 2]);
  });

  it('refuses bad values, a hash that is not a SHA-256, a duplicate hash and an empty batch, making none of a refused batch', async () => {
    for (const bad of [0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_BALANCE_MICRO + 1]) {
      await assert.rejects(store.createCodes([newCode('ok'), newCode(`bad ${bad}`, { value: bad })]), storeError('invalid'), String(bad));
    }
    await assert.rejects(store.createCodes([newCode('plain', { hash: 'MGC-PLAIN-TEXT' })]), storeError('invalid'));
    await assert.rejects(store.createCodes([]), storeError('invalid'));
    await store.createCodes([newCode('one')]);
    await assert.rejects(store.createCodes([newCode('two'), newCode('one')]), storeError('conflict'));
    assert.deepEqual((await store.listCodes({ now: Date.now(), limit: 10 })).map((c) => c.hash), [hashOf('one')], 'nothing of the refused batches');
  });

  it('a redemption past the ceiling of a balance is refused and leaves the code unused', async () => {
    const rich = await store.createAccount('rich', MAX_BALANCE_MICRO - 10);
    const [code] = await store.createCodes([newCode('big', { value: 11 })]);
    await assert.rejects(store.redeemCode(code!.hash, { accountId: rich.id, userId: null }, Date.now()), storeError('invalid'));
    assert.equal((await store.getAccount('rich'))!.balance, MAX_BALANCE_MICRO - 10);
    const [listed] = await store.listCodes({ now: Date.now(), limit: 1 });
    assert.equal(codeStatus(listed!, Date.now()), 'unused', 'the mark was rolled back with the refused credit');
    const poor = await store.createAccount('poor', 0);
    assert.equal((await store.redeemCode(code!.hash, { accountId: poor.id, userId: null }, Date.now()))!.account.balance, 11);
  });

  it('50 redemptions of one code at once, through several connections or instances, credit it exactly once', async () => {
    const team = await store.createAccount('team', 0);
    const [code] = await store.createCodes([newCode('race', { value: 2_500_000 })]);
    const stores = [store];
    if (another) for (let i = 0; i < 3; i++) stores.push(await another());
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % stores.length]!.redeemCode(code!.hash, { accountId: team.id, userId: null }, Date.now())));
    assert.equal(results.filter((r) => r !== null).length, 1);
    assert.equal((await store.getAccount('team'))!.balance, 2_500_000);
    const [listed] = await store.listCodes({ now: Date.now(), limit: 1 });
    assert.equal(listed!.redeemedAccountId, team.id);
  });

  // Memory has no database to ask.
  if (name !== 'memory') it('the database itself refuses a value that is not whole micro-USD from 1 to the ceiling, and a code that is not a hash (raw SQL)', async () => {
    const run = raw!;
    const insert = 'INSERT INTO redemption_codes (code_hash, value, created_at) VALUES ($1, $2, $3)';
    const sql = name === 'sqlite' ? insert.replace(/\$\d/g, '?') : insert;
    await run(sql, [hashOf('fine'), 1, Date.now()]);
    for (const bad of [0, -1, 1.5, MAX_BALANCE_MICRO + 1]) await assert.rejects(run(sql, [hashOf(`bad ${bad}`), bad, Date.now()]), REFUSED, `value ${bad}`);
    await assert.rejects(run(sql, ['MGC-THE-CODE-ITSELF', 5, Date.now()]), REFUSED, 'not a hash');
    await assert.rejects(run(`UPDATE redemption_codes SET value = ${MAX_BALANCE_MICRO + 1}`), REFUSED, 'an update past the ceiling');
    await assert.rejects(run('UPDATE redemption_codes SET value = 0'), REFUSED, 'an update to nothing');
    await assert.rejects(run('UPDATE redemption_codes SET redeemed_at = 1'), REFUSED, 'used by no account');
    assert.deepEqual((await store.listCodes({ now: Date.now(), limit: 10 })).map((c) => [c.value, c.redeemedAt]), [[1, null]]);
  });
});
