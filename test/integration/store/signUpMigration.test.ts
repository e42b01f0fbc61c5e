// Migrations for self sign-up (SQLite 19, PostgreSQL 11) on a database written by the version before:
// its redemption codes keep their ids, values and state and stay redeemable once; invitations and
// settings can then be made; and a new code takes an id after the old ones (the id sequence kept).
import assert from 'node:assert/strict';
import { postgresBefore, sqliteBefore } from '../../support/schemaBefore.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import type { Store } from '../../../src/gateway/store/types.ts';

const SIGN_UP_SQLITE = 19;
const SIGN_UP_POSTGRES = 11;

/** The rows of the version before: an account, a used code (id 3) and an unused one (id 7). */
function oldRows(falseValue: string): string[] {
  return [
    "INSERT INTO accounts (id, name, balance, created_at) VALUES (1, 'team', 10, 1)",
    `INSERT INTO redemption_codes (id, code_hash, value, batch, created_at, disabled, redeemed_at, redeemed_account_id) VALUES (3, '${'a'.repeat(64)}', 5, 'old', 1, ${falseValue}, 2, 1)`,
    `INSERT INTO redemption_codes (id, code_hash, value, batch, created_at, disabled) VALUES (7, '${'b'.repeat(64)}', 9, 'old', 1, ${falseValue})`,
  ];
}

async function check(store: Store): Promise<void> {
  const now = Date.now();
  assert.deepEqual((await store.listCodes({ now, limit: 10 })).map((c) => [c.id, c.value, c.batch, c.redeemedAt]), [[7, 9, 'old', null], [3, 5, 'old', 2]]);
  assert.equal((await store.redeemCode('b'.repeat(64), { accountId: 1, userId: null }, now))!.account.balance, 19);
  assert.equal(await store.redeemCode('b'.repeat(64), { accountId: 1, userId: null }, now), null);
  assert.deepEqual(await store.signUps.listInvitations({ now, limit: 10 }), []);
  const [made] = await store.signUps.createInvitations([{ hash: 'c'.repeat(64), batch: null, expiresAt: null, createdBy: null }]);
  assert.ok(made!.id > 7, `a new code's id (${made!.id}) comes after the old ones`);
  assert.deepEqual(await store.settings.change({ sign_up: 'invitation' }), { sign_up: 'invitation' });
  assert.ok(await store.signUps.signUp({ name: 'ada', passwordHash: 'x', balance: 0, invitationHash: 'c'.repeat(64) }, now));
}

describe('the sign-up migrations, from the version before', () => {
  it(`SQLite: schema ${SIGN_UP_SQLITE - 1} to ${SIGN_UP_SQLITE}`, async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes('gateway_settings'))!.version, SIGN_UP_SQLITE);
    await sqliteBefore(SIGN_UP_SQLITE, oldRows('0'), check);
  });

  it(`PostgreSQL: schema ${SIGN_UP_POSTGRES - 1} to ${SIGN_UP_POSTGRES}`, async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes('gateway_settings'))!.version, SIGN_UP_POSTGRES);
    // Rows written with their ids, as `migrate` writes them: the identity goes on after them.
    await postgresBefore(SIGN_UP_POSTGRES, oldRows('false'), "SELECT setval(pg_get_serial_sequence('redemption_codes', 'id'), 8, false), setval(pg_get_serial_sequence('accounts', 'id'), 2, false)", check);
  });
});
