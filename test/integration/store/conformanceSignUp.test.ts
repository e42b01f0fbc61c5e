// Invitation codes and self sign-up in the shared conformance suite: the same behaviour on memory, SQLite
// and PostgreSQL. Invitations live with redemption codes in one table, apart by kind: neither is ever
// listed, disabled or used as the other. A sign-up makes the account (with its balance) and the user and
// marks the invitation in one step, with its audit row; a wrong invitation changes nothing and is decided
// before any name is compared; a taken name leaves the invitation unused; and 20 sign-ups racing for one
// invitation, through several connections or instances, make one user.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { codeStatus } from '../../../src/gateway/store/codeQuery.ts';
import { StoreError, type NewInvitation, type NewSignUp, type Store } from '../../../src/gateway/store/types.ts';
import { describeEachStore, type StoreUnderTest, type RawSql } from '../../support/stores.ts';

const storeError = (code: string) => (error: unknown) => error instanceof StoreError && error.code === code;
const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');
const invitation = (code: string, overrides: Partial<NewInvitation> = {}): NewInvitation => ({ hash: hashOf(code), batch: 'spring', expiresAt: null, createdBy: null, ...overrides });
const person = (name: string, code: string | null, balance = 1_500_000): NewSignUp => ({
  name, passwordHash: 'scrypt$N=2,r=1,p=1$c2FsdA==$aGFzaA==', balance, invitationHash: code === null ? null : hashOf(code),
  audit: { actor: name, action: 'user.sign_up', target: name, details: { balance_micro_usd: balance } },
});

describeEachStore('the Store interface, invitation codes and sign-up', (current, name) => {
  let store: Store;
  let another: StoreUnderTest['another'];
  let raw: RawSql | null;
  beforeEach(() => ({ store, another, raw } = current()));

  it('a sign-up with an invitation makes the account with its balance and the user, marks the invitation with them, and writes its audit row, in one step', async () => {
    const [made] = await store.signUps.createInvitations([invitation('A')], { actor: 'root', action: 'invitation.create', target: 'spring', details: { count: 1 } });
    assert.deepEqual([made!.hash, made!.batch, made!.redeemedAt, 'value' in made!], [hashOf('A'), 'spring', null, false]);
    store.changedSinceLastCheck();
    const now = Date.now();
    const done = await store.signUps.signUp(person('ada', 'A'), now);
    assert.ok(done);
    assert.deepEqual([done.account.name, done.account.balance, done.user.name, done.user.accountId, done.user.admin, done.user.status], ['ada', 1_500_000, 'ada', done.account.id, false, 'enabled']);
    assert.deepEqual([done.invitation!.redeemedAt, done.invitation!.redeemedAccountId, done.invitation!.redeemedUserId], [now, done.account.id, done.user.id]);
    assert.equal(store.changedSinceLastCheck(), true, 'the request path sees the new account and its balance');
    assert.equal((await store.snapshot()).accounts.find((a) => a.name === 'ada')!.balance, 1_500_000);
    assert.deepEqual((await store.listUsers()).map((u) => u.name), ['ada']);
    assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => [r.actor, r.action, r.target]), [['ada', 'user.sign_up', 'ada'], ['root', 'invitation.create', 'spring']]);
    const [listed] = await store.signUps.listInvitations({ now, limit: 10 });
    assert.equal(codeStatus(listed!, now), 'used');
    assert.equal(listed!.redeemedUserId, done.user.id);

    assert.equal(await store.signUps.signUp(person('bob', 'A'), now + 1), null, 'used');
    assert.deepEqual((await store.listUsers()).map((u) => u.name), ['ada'], 'nothing made by the refusal');
    assert.equal(await store.getAccount('bob'), null);
    assert.equal((await store.listAudit({ limit: 10 })).length, 2, 'no audit row for the refusal');
  });

  it('an unknown, expired, disabled or redemption code is no invitation; an invitation is no redemption code', async () => {
    const now = Date.now();
    const [soon, off] = await store.signUps.createInvitations([invitation('soon', { expiresAt: now + 1000 }), invitation('off', { batch: 'b2' })]);
    assert.equal(await store.signUps.disableInvitations({ batch: 'b2' }), 1);
    await store.createCodes([{ hash: hashOf('money'), value: 5, batch: 'spring', expiresAt: null, createdBy: null }]);
    for (const code of ['nope', 'soon', 'off', 'money']) assert.equal(await store.signUps.signUp(person('eve', code), code === 'soon' ? now + 1000 : now), null, code);
    assert.equal(await store.getAccount('eve'), null);
    assert.equal(codeStatus(soon!, now), 'unused');
    assert.equal(off!.disabled, false, 'as made');

    const team = await store.createAccount('team', 0);
    assert.equal(await store.redeemCode(soon!.hash, { accountId: team.id, userId: null }, now), null, 'an invitation credits nothing');
    assert.equal((await store.getAccount('team'))!.balance, 0);
    // Each kind is listed and disabled apart: batch "spring" holds one of each.
    assert.deepEqual((await store.listCodes({ now, limit: 10 })).map((c) => c.hash), [hashOf('money')]);
    assert.deepEqual((await store.signUps.listInvitations({ now, limit: 10 })).map((c) => c.hash), [hashOf('off'), hashOf('soon')]);
    assert.deepEqual((await store.signUps.listInvitations({ now, limit: 10, status: 'disabled' })).map((c) => c.hash), [hashOf('off')]);
    assert.equal(await store.signUps.disableInvitations({ batch: 'spring' }), 1);
    assert.equal((await store.listCodes({ now, limit: 10, status: 'unused' })).length, 1, 'the redemption code of the batch stays usable');
    await assert.rejects(store.signUps.disableInvitations({ id: (await store.listCodes({ now, limit: 1 }))[0]!.id }), storeError('not_found'));
    await assert.rejects(store.disableCodes({ id: soon!.id }), storeError('not_found'));
    await assert.rejects(store.signUps.createInvitations([invitation('money')]), storeError('conflict'), 'a hash is unique over both kinds');
    await assert.rejects(store.signUps.createInvitations([invitation('MGI-PLAIN')].map((c) => ({ ...c, hash: 'MGI-PLAIN' }))), storeError('invalid'));
    await assert.rejects(store.signUps.createInvitations([]), storeError('invalid'));
  });

  it('a taken name (a user\'s or an account\'s) is a conflict decided after the invitation: the invitation stays unused, nothing is made', async () => {
    await store.createAccount('shared', 0);
    await store.signUps.createInvitations([invitation('B')]);
    assert.ok(await store.signUps.signUp(person('ada', null), Date.now()), 'open sign-up: no invitation needed');
    await assert.rejects(store.signUps.signUp(person('ada', 'B'), Date.now()), storeError('conflict'));
    await assert.rejects(store.signUps.signUp(person('shared', 'B'), Date.now()), storeError('conflict'));
    // A wrong invitation is answered as such whatever the name: nobody learns names without one.
    assert.equal(await store.signUps.signUp(person('ada', 'wrong'), Date.now()), null);
    const [b] = await store.signUps.listInvitations({ now: Date.now(), limit: 1 });
    assert.equal(codeStatus(b!, Date.now()), 'unused');
    assert.deepEqual((await store.listUsers()).map((u) => u.name), ['ada']);
    assert.equal((await store.listAudit({ limit: 10 })).length, 1, 'the one sign-up');
    assert.ok(await store.signUps.signUp(person('bob', 'B', 0), Date.now()), 'still usable, and a new account may start at $0');
    await assert.rejects(store.signUps.signUp(person('neg', null, -1), Date.now()), storeError('invalid'));
  });

  it('20 sign-ups with one invitation at once, through several connections or instances, make exactly one user', async () => {
    await store.signUps.createInvitations([invitation('race')]);
    const stores = [store];
    if (another) for (let i = 0; i < 3; i++) stores.push(await another());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % stores.length]!.signUps.signUp(person(`racer${i}`, 'race'), Date.now())));
    const winners = results.filter((r) => r !== null);
    assert.equal(winners.length, 1);
    assert.deepEqual((await store.listUsers()).map((u) => u.name), [winners[0]!.user.name]);
    assert.deepEqual((await store.snapshot()).accounts.map((a) => a.name), [winners[0]!.user.name]);
    const [listed] = await store.signUps.listInvitations({ now: Date.now(), limit: 1 });
    assert.equal(listed!.redeemedUserId, winners[0]!.user.id);
  });

  // Memory has no database to ask.
  if (name !== 'memory') it('the database itself refuses an invitation with a value and a redemption code without one (raw SQL)', async () => {
    const insert = "INSERT INTO redemption_codes (kind, code_hash, value, created_at) VALUES ($1, $2, $3, $4)";
    const sql = name === 'sqlite' ? insert.replace(/\$\d/g, '?') : insert;
    await run(sql, ['invitation', hashOf('fine'), null, Date.now()]);
    await assert.rejects(run(sql, ['invitation', hashOf('valued'), 5, Date.now()]), /CHECK constraint failed|violates check constraint/);
    await assert.rejects(run(sql, ['redemption', hashOf('free'), null, Date.now()]), /CHECK constraint failed|violates check constraint/);
    await assert.rejects(run(sql, ['gift', hashOf('gift'), 5, Date.now()]), /CHECK constraint failed|violates check constraint/);
    assert.equal((await store.signUps.listInvitations({ now: Date.now(), limit: 10 })).length, 1);
    function run(text: string, params: unknown[]) {
      return raw!(text, params);
    }
  });
});
