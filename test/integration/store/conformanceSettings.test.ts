// Gateway settings in the shared conformance suite: the same behaviour on memory, SQLite and PostgreSQL.
// Only the settings set are kept; a change (set or back to the default) writes its audit row in the same
// step and is a change of the request path's data, seen by a second connection or instance; a value the
// rules refuse changes nothing (and writes no row); the databases refuse a value that is not JSON, and a
// row hand-edited into something the gateway cannot apply is named when read.
import assert from 'node:assert/strict';
import { MAX_BALANCE_MICRO } from '../../../src/contract/index.ts';
import { StoreError, type AuditEntry, type SettingChanges, type Store } from '../../../src/gateway/store/types.ts';
import { poll } from '../../support/poll.ts';
import { describeEachStore, type StoreUnderTest, type RawSql } from '../../support/stores.ts';

const storeError = (code: string) => (error: unknown) => error instanceof StoreError && error.code === code;
const audit = (target: string, details: Record<string, unknown>): AuditEntry => ({ actor: 'root', action: 'settings.change', target, details });

describeEachStore('the Store interface, gateway settings', (current, name) => {
  let store: Store;
  let another: StoreUnderTest['another'];
  let raw: RawSql | null;
  beforeEach(() => ({ store, another, raw } = current()));

  it('keeps only what is set; a change and its audit row are one step, and a change of the data; null puts a setting back to its default', async () => {
    assert.deepEqual(await store.settings.read(), {});
    store.changedSinceLastCheck();
    const set = await store.settings.change({ sign_up: 'invitation', new_user_balance: 2_500_000, notice: 'Maintenance\nat 18:00' }, audit('sign_up, new_user_balance, notice', { sign_up: 'invitation' }));
    assert.deepEqual(set, { sign_up: 'invitation', new_user_balance: 2_500_000, notice: 'Maintenance\nat 18:00' });
    assert.equal(store.changedSinceLastCheck(), true, 'the request path reloads its settings');
    assert.deepEqual(await store.settings.read(), set);

    const cleared = await store.settings.change({ notice: null, log_retention_days: 0, sign_up: 'open' }, audit('sign_up, log_retention_days, notice', { notice: null }));
    assert.deepEqual(cleared, { sign_up: 'open', new_user_balance: 2_500_000, log_retention_days: 0 });
    assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => [r.action, r.target, r.details]), [
      ['settings.change', 'sign_up, log_retention_days, notice', { notice: null }], ['settings.change', 'sign_up, new_user_balance, notice', { sign_up: 'invitation' }],
    ]);
  });

  it('refuses a value the rules refuse, an unknown setting and an empty change, changing nothing and writing no audit row', async () => {
    await store.settings.change({ sign_up: 'open' });
    const bad: SettingChanges[] = [
      { sign_up: 'maybe' as never }, { new_user_balance: -1 }, { new_user_balance: 0.5 }, { new_user_balance: MAX_BALANCE_MICRO + 1 }, { log_retention_days: 36_501 },
      { log_retention_days: -1 }, { notice: '' }, { notice: 'x'.repeat(501) }, { notice: 'bell\u0007' }, { ['colour' as 'notice']: 'blue' }, {},
      // One wrong value refuses the whole change.
      { sign_up: 'off', new_user_balance: -5 },
    ];
    for (const changes of bad) await assert.rejects(store.settings.change(changes, audit('x', {})), storeError('invalid'), JSON.stringify(changes));
    assert.deepEqual(await store.settings.read(), { sign_up: 'open' });
    assert.deepEqual(await store.listAudit({ limit: 10 }), []);
    // A notice at the limit, and $0 for a new account, are fine.
    assert.deepEqual(await store.settings.change({ notice: 'n'.repeat(500), new_user_balance: 0 }), { sign_up: 'open', notice: 'n'.repeat(500), new_user_balance: 0 });
  });

  if (name !== 'memory') {
    it('a second connection or instance on the same data sees a change, and is told of it', async () => {
      const other = await another!();
      assert.deepEqual(await other.settings.read(), {});
      other.changedSinceLastCheck();
      await store.settings.change({ sign_up: 'open' }, audit('sign_up', { sign_up: 'open' }));
      // SQLite: the data version moved; PostgreSQL: the NOTIFY (or the re-read every second) arrives.
      await poll('the other store told of the change', async () => other.changedSinceLastCheck() || undefined, 2000, 10);
      assert.deepEqual(await other.settings.read(), { sign_up: 'open' });
    });

    it('the database itself refuses a value that is not JSON; a hand-edited value the gateway cannot apply is named when read (raw SQL)', async () => {
      const insert = name === 'sqlite' ? 'INSERT INTO gateway_settings (name, value, updated_at) VALUES (?, ?, ?)' : 'INSERT INTO gateway_settings (name, value, updated_at) VALUES ($1, $2, $3)';
      await assert.rejects(raw!(insert, ['sign_up', 'open', Date.now()]), /CHECK constraint failed|violates check constraint|invalid input syntax for type json/);
      await raw!(insert, ['sign_up', '"sometimes"', Date.now()]);
      await assert.rejects(store.settings.read(), (error: unknown) => error instanceof StoreError && error.code === 'invalid' && /gateway_settings row sign_up/.test(error.message));
      // A setting of a newer version is left alone.
      await raw!("UPDATE gateway_settings SET name = 'colour'");
      assert.deepEqual(await store.settings.read(), {});
    });
  }
});
