// The audit log and the admins' user changes, one behaviour on every Store (memory, SQLite, PostgreSQL):
// each admin change writes its audit row in the same step (redemption codes made and disabled too), a
// refused change writes none, a row that would hold a secret (or a code) refuses the change, the rows
// list newest first by actor and action with paging, the databases refuse to change a row,
// the last enabled admin cannot be disabled or demoted when the console asks (not even by two admins at
// once), and a sign-in is recorded on the user.
import assert from 'node:assert/strict';
import { MAX_BALANCE_MICRO } from '../../../src/contract/index.ts';
import { StoreError, type AuditEntry, type Store } from '../../../src/gateway/store/types.ts';
import { newChannel } from '../../support/channels.ts';
import { describeEachStore, type RawSql } from '../../support/stores.ts';

const storeError = (code: string) => (error: unknown) => error instanceof StoreError && error.code === code;
const by = (actor: string, action: AuditEntry['action'], target: string, details?: Record<string, unknown>): AuditEntry => ({ actor, action, target, ...(details ? { details } : {}) });

describeEachStore('the Store interface, audit log and admin changes', (current, name) => {
  let store: Store;
  let raw: RawSql | null;
  beforeEach(() => ({ store, raw } = current()));

  /** Every audit row, newest first. */
  const rows = async () => store.listAudit({ limit: 1000 });

  async function user(userName: string, admin = false) {
    const account = (await store.getAccount(userName)) ?? (await store.createAccount(userName, 0));
    return store.createUser({ name: userName, accountId: account.id, admin, passwordHash: 'scrypt$N=2,r=1,p=1$c2FsdA==$aGFzaA==' });
  }

  it('writes each admin change with its row: accounts, users, channels, prices; lists them newest first', async () => {
    const started = Date.now();
    await store.createAccount('team', 1_000_000, by('cli', 'account.create', 'team', { balance_micro_usd: 1_000_000 }));
    assert.equal((await store.topUp('team', 2_500_000, by('root', 'account.topup', 'team', { amount_micro_usd: 2_500_000 }))).balance, 3_500_000);
    const team = (await store.getAccount('team'))!;
    await store.createUser({ name: 'ada', accountId: team.id, admin: false, passwordHash: 'x' }, by('root', 'user.create', 'ada', { account: 'team', admin: false }));
    await store.setUserStatus('ada', 'disabled', { audit: by('root', 'user.disable', 'ada') });
    await store.setUserStatus('ada', 'enabled', { audit: by('root', 'user.enable', 'ada') });
    await store.setUserPassword('ada', 'y', by('root', 'user.password_reset', 'ada'));
    await store.setUserAdmin('ada', true, { audit: by('root', 'user.admin_grant', 'ada') });
    await store.setUserAdmin('ada', false, { audit: by('root', 'user.admin_revoke', 'ada') });
    await store.addChannel(newChannel({ name: 'up' }), by('cli', 'channel.add', 'up', { type: 'openai' }));
    await store.updateChannel('up', { apiKey: 'sk-replaced', priority: 2 }, by('root', 'channel.update', 'up', { priority: 2, upstream_key: 'replaced' }));
    // A row that would hold the key refuses the update with it: the key and the settings stay.
    await assert.rejects(store.updateChannel('up', { apiKey: 'sk-leaked', priority: 9 }, by('root', 'channel.update', 'up', { api_key: 'sk-leaked' })), storeError('invalid'));
    assert.deepEqual((await store.listChannels()).map((c) => [c.apiKey, c.priority]), [['sk-replaced', 2]]);
    await store.setChannelStatus('up', 'disabled', by('cli', 'channel.disable', 'up'));
    await store.removeChannel('up', by('cli', 'channel.remove', 'up'));
    await store.setModel({ name: 'm', kind: 'chat', inputPrice: 5, outputPrice: 7, imagePrice: null, contextLength: null, toolCalling: null }, by('cli', 'model.price', 'm', { input_price: 5 }));
    const appended = await store.appendAudit(by('root', 'account.topup', 'elsewhere', { note: 'written alone' }));

    const all = await rows();
    assert.deepEqual(all.map((r) => [r.actor, r.action, r.target]), [
      ['root', 'account.topup', 'elsewhere'], ['cli', 'model.price', 'm'], ['cli', 'channel.remove', 'up'], ['cli', 'channel.disable', 'up'], ['root', 'channel.update', 'up'], ['cli', 'channel.add', 'up'],
      ['root', 'user.admin_revoke', 'ada'], ['root', 'user.admin_grant', 'ada'], ['root', 'user.password_reset', 'ada'], ['root', 'user.enable', 'ada'],
      ['root', 'user.disable', 'ada'], ['root', 'user.create', 'ada'], ['root', 'account.topup', 'team'], ['cli', 'account.create', 'team'],
    ]);
    assert.deepEqual(all[0], appended);
    assert.deepEqual(all.find((r) => r.action === 'account.topup' && r.target === 'team')!.details, { amount_micro_usd: 2_500_000 });
    assert.deepEqual(all.find((r) => r.action === 'user.create')!.details, { account: 'team', admin: false });
    assert.equal(all.find((r) => r.action === 'user.disable')!.details, null, 'no details: null');
    for (const r of all) assert.ok(r.time >= started - 1000 && r.time <= Date.now() + 1000, `time of ${r.action}: ${r.time}`);
    assert.ok(all.every((r, i) => i === 0 || r.id < all[i - 1]!.id), 'newest first, by id');

    assert.equal((await store.listUsers()).find((u) => u.name === 'ada')!.admin, false);
    assert.equal((await store.getAccount('team'))!.balance, 3_500_000);
  });

  it('filters by actor and by action, and pages with beforeId', async () => {
    await store.createAccount('team', 0);
    for (let i = 1; i <= 5; i++) await store.topUp('team', i, by(i % 2 ? 'root' : 'cli', 'account.topup', 'team', { amount_micro_usd: i }));
    await store.appendAudit(by('root', 'user.disable', 'x'));
    const amounts = (list: Awaited<ReturnType<Store['listAudit']>>) => list.map((r) => r.details?.['amount_micro_usd'] ?? r.action);
    assert.deepEqual(amounts(await store.listAudit({ actor: 'root', limit: 10 })), ['user.disable', 5, 3, 1]);
    assert.deepEqual(amounts(await store.listAudit({ action: 'account.topup', limit: 10 })), [5, 4, 3, 2, 1]);
    assert.deepEqual(amounts(await store.listAudit({ actor: 'root', action: 'account.topup', limit: 10 })), [5, 3, 1]);
    const first = await store.listAudit({ action: 'account.topup', limit: 2 });
    assert.deepEqual(amounts(first), [5, 4]);
    const second = await store.listAudit({ action: 'account.topup', limit: 2, beforeId: first.at(-1)!.id });
    assert.deepEqual(amounts(second), [3, 2]);
    assert.deepEqual(amounts(await store.listAudit({ action: 'account.topup', limit: 2, beforeId: second.at(-1)!.id })), [1]);
    assert.deepEqual(await store.listAudit({ actor: 'nobody', limit: 10 }), []);
  });

  it('a refused change writes no row; a row naming a secret, or no known action, refuses its change', async () => {
    await store.createAccount('team', 1_000);
    await assert.rejects(store.topUp('nobody', 1, by('root', 'account.topup', 'nobody')), storeError('not_found'));
    await assert.rejects(store.topUp('team', MAX_BALANCE_MICRO, by('root', 'account.topup', 'team')), storeError('invalid'));
    await assert.rejects(store.topUp('team', 0, by('root', 'account.topup', 'team')), storeError('invalid'));
    await assert.rejects(store.setUserStatus('nobody', 'disabled', { audit: by('root', 'user.disable', 'nobody') }), storeError('not_found'));
    await assert.rejects(store.setUserPassword('nobody', 'x', by('root', 'user.password_reset', 'nobody')), storeError('not_found'));
    await assert.rejects(store.setUserAdmin('nobody', true, { audit: by('root', 'user.admin_grant', 'nobody') }), storeError('not_found'));
    await user('ada');
    await assert.rejects(user('ada'), storeError('conflict'));
    const team = (await store.getAccount('team'))!;
    await assert.rejects(store.createUser({ name: 'ada', accountId: team.id, admin: false, passwordHash: 'x' }, by('root', 'user.create', 'ada')), storeError('conflict'));
    await assert.rejects(store.removeChannel('nope', by('cli', 'channel.remove', 'nope')), storeError('not_found'));
    await assert.rejects(store.updateChannel('nope', { priority: 1 }, by('root', 'channel.update', 'nope')), storeError('not_found'));
    assert.deepEqual(await rows(), [], 'nothing was recorded');

    for (const details of [{ password: 'hunter2hunter2' }, { channel: { api_key: 'sk-upstream' } }, { new_secret: 'x' }, { token: 't' }]) {
      await assert.rejects(store.topUp('team', 5, by('root', 'account.topup', 'team', details)), storeError('invalid'), JSON.stringify(details));
      await assert.rejects(store.setUserPassword('ada', 'changed', by('root', 'user.password_reset', 'ada', details)), storeError('invalid'));
    }
    await assert.rejects(store.topUp('team', 5, { actor: 'root', action: 'account.drain' as AuditEntry['action'], target: 'team' }), storeError('invalid'));
    await assert.rejects(store.appendAudit(by('root', 'user.create', 'x', { password_hash: 'h' })), storeError('invalid'));
    assert.equal((await store.getAccount('team'))!.balance, 1_000, 'no refused top-up moved money');
    assert.equal((await store.listUsers())[0]!.passwordHash, 'scrypt$N=2,r=1,p=1$c2FsdA==$aGFzaA==', 'no refused reset changed the password');
    assert.deepEqual(await rows(), []);
  });

  it('writes code batches and disables with their rows, never a code; a refused one writes none', async () => {
    const code = (c: string) => ({ hash: c.repeat(64), value: 5_000_000, batch: 'spring', expiresAt: null, createdBy: null });
    const made = await store.createCodes([code('a'), code('b')], by('root', 'code.create', 'spring', { batch: 'spring', count: 2, value_micro_usd: 5_000_000 }));
    assert.equal(await store.disableCodes({ id: made[0]!.id }, by('cli', 'code.disable', `code ${made[0]!.id}`, { id: made[0]!.id })), 1);
    assert.equal(await store.disableCodes({ batch: 'spring' }, by('root', 'code.disable', 'spring', { batch: 'spring' })), 1);
    assert.deepEqual((await rows()).map((r) => [r.actor, r.action, r.target, r.details]), [
      ['root', 'code.disable', 'spring', { batch: 'spring' }],
      ['cli', 'code.disable', `code ${made[0]!.id}`, { id: made[0]!.id }],
      ['root', 'code.create', 'spring', { batch: 'spring', count: 2, value_micro_usd: 5_000_000 }],
    ]);

    await assert.rejects(store.createCodes([code('c'), code('a')], by('root', 'code.create', 'spring')), storeError('conflict'));
    await assert.rejects(store.disableCodes({ batch: 'autumn' }, by('root', 'code.disable', 'autumn')), storeError('not_found'));
    await assert.rejects(store.disableCodes({ id: 999_999 }, by('root', 'code.disable', 'code 999999')), storeError('not_found'));
    for (const details of [{ codes: ['MGC-0000-0000-0000-0000-0000'] }, { code: 'MGC-0000-0000-0000-0000-0000' }, { code_hash: 'c'.repeat(64) }]) {
      await assert.rejects(store.createCodes([code('d')], by('root', 'code.create', 'spring', details)), storeError('invalid'), JSON.stringify(details));
    }
    assert.equal((await rows()).length, 3, 'nothing more was recorded');
    assert.deepEqual((await store.listCodes({ now: Date.now(), limit: 10 })).map((c) => c.hash[0]), ['b', 'a'], 'no refused batch made a code');
  });

  if (name !== 'memory') it('the database itself refuses an UPDATE or a DELETE of an audit row (raw SQL)', async () => {
    await store.appendAudit(by('root', 'account.topup', 'team', { amount_micro_usd: 1 }));
    await assert.rejects(raw!("UPDATE audit_log SET actor = 'someone else'"), /append-only/);
    await assert.rejects(raw!('DELETE FROM audit_log'), /append-only/);
    assert.deepEqual((await rows()).map((r) => r.actor), ['root']);
  });

  it('keeps an enabled admin when asked: the last one can be neither disabled nor demoted; without the ask (the CLI) it can', async () => {
    await user('root', true);
    await user('ada', false);
    const keep = { keepAnAdmin: true } as const;
    await assert.rejects(store.setUserStatus('root', 'disabled', { ...keep, audit: by('root', 'user.disable', 'root') }), storeError('last_admin'));
    await assert.rejects(store.setUserAdmin('root', false, { ...keep, audit: by('root', 'user.admin_revoke', 'root') }), storeError('last_admin'));
    assert.deepEqual((await store.listUsers()).map((u) => [u.name, u.admin, u.status]), [['root', true, 'enabled'], ['ada', false, 'enabled']], 'nothing changed');
    assert.deepEqual(await rows(), [], 'and nothing was recorded');

    // Changes that leave the admin in place pass: a non-admin disabled, the admin re-granted.
    await store.setUserStatus('ada', 'disabled', keep);
    await store.setUserAdmin('root', true, keep);
    // A disabled admin is not one that can sign in: it does not count.
    await store.setUserAdmin('ada', true, keep);
    await assert.rejects(store.setUserStatus('root', 'disabled', keep), storeError('last_admin'));
    await store.setUserStatus('ada', 'enabled', keep);
    await store.setUserStatus('root', 'disabled', { ...keep, audit: by('ada', 'user.disable', 'root') });
    assert.equal((await rows())[0]!.action, 'user.disable');
    await assert.rejects(store.setUserAdmin('ada', false, keep), storeError('last_admin'));

    // The command line is the operator's way back in: it is not held.
    await store.setUserAdmin('ada', false);
    assert.deepEqual((await store.listUsers()).filter((u) => u.admin && u.status === 'enabled'), []);
  });

  it('two admins demoting each other at once: one wins, an enabled admin is left (rounds on a warm pool)', async () => {
    for (let round = 0; round < 8; round++) {
      const [ann, ben] = [`ann${round}`, `ben${round}`];
      await user(ann, true);
      await user(ben, true);
      // Every other admin of earlier rounds is out of the way: these two are the only enabled ones.
      await Promise.all([store.listUsers(), store.listUsers(), store.listUsers()]); // connections ready on a pool
      const results = await Promise.allSettled([
        store.setUserAdmin(ann, false, { keepAnAdmin: true, audit: by(ben, 'user.admin_revoke', ann) }),
        store.setUserStatus(ben, 'disabled', { keepAnAdmin: true, audit: by(ann, 'user.disable', ben) }),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'], `round ${round}`);
      assert.ok(storeError('last_admin')((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason));
      const left = (await store.listUsers()).filter((u) => u.admin && u.status === 'enabled');
      assert.equal(left.length, 1, `round ${round}: ${left.map((u) => u.name)}`);
      assert.equal((await rows()).length, round + 1, 'only the change made is recorded');
      await store.setUserAdmin(left[0]!.name, false); // the CLI, unheld: the next round starts with no enabled admin
    }
  });

  it('records the latest sign-in on the user', async () => {
    const ada = await user('ada');
    assert.equal(ada.lastSignInAt, null);
    await store.createSession({ idHash: 's1', userId: ada.id, createdAt: 1_000_000, expiresAt: 2_000_000 });
    await store.createSession({ idHash: 's2', userId: ada.id, createdAt: 1_500_000, expiresAt: 2_000_000 });
    assert.equal((await store.listUsers())[0]!.lastSignInAt, 1_500_000);
  });
});
