// Keys and the users behind them (issue 10, store/keyUsers.ts), on every store: a key remembers the user who
// made it (null for the CLI's), through listing, rotation and every other change; read with a key is its
// creator's name while that user is disabled, and with an account (the snapshot's) whether every one of its
// users is; enabling undoes both, and a key's own status stays its own. A user's change brings back, in the
// snapshot since the last one, the keys and the account whose reading it changed (memory answers whole), also
// when another process or instance made it. And the versions before: their keys have no creator.
import assert from 'node:assert/strict';
import { postgresBefore, sqliteBefore } from '../../support/schemaBefore.ts';
import { describeEachStore } from '../../support/stores.ts';
import { poll } from '../../support/poll.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import { NO_EXTRA_LIMITS } from '../../../src/gateway/store/keySettings.ts';
import type { KeyRecord, NewKey, Snapshot, Store } from '../../../src/gateway/store/types.ts';

let hashes = 0;
function newKey(accountId: number, name: string, userId?: number): NewKey {
  const hash = String(++hashes).padStart(64, '0');
  return { accountId, name, hash, prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0, ...(userId === undefined ? {} : { userId }) };
}

const user = (store: Store, name: string, accountId: number) => store.createUser({ name, accountId, admin: false, passwordHash: 'x' });
const byId = <T extends { id: number }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => a.id - b.id);
/** What a snapshot says of keys: [name, its creator's id, the disabled creator] by id. */
const keysOf = (snap: Snapshot) => byId(snap.keys).map((k) => [k.name, k.userId, k.disabledCreator]);
const accountOf = (snap: Snapshot, id: number) => snap.accounts.find((a) => a.id === id)?.usersDisabled;

describeEachStore('keys and the users who made them', (current, name) => {
  let store: Store;
  beforeEach(() => ({ store } = current()));

  it('a key remembers its creator (null for the CLI\'s): answered, listed, in the snapshot, kept by rotation and every other change', async () => {
    const team = await store.createAccount('team', 0);
    const ada = await user(store, 'ada', team.id);
    const made = await store.createKey(newKey(team.id, 'laptop', ada.id));
    const cli = await store.createKey(newKey(team.id, 'cli'));
    assert.deepEqual([made.userId, made.disabledCreator, cli.userId, cli.disabledCreator], [ada.id, null, null, null]);
    assert.deepEqual(await store.listKeys(team.id), [made, cli]);
    assert.deepEqual(byId((await store.snapshot()).keys), [made, cli]);

    await store.setKeySecret(made.id, 'f'.repeat(64), 'sk-ff…');
    await store.setKeyStatus(made.id, 'disabled');
    await store.setKeyLimits(made.id, { ...NO_EXTRA_LIMITS, rpm: 5, concurrency: 1 });
    const changed = (await store.listKeys()).find((k) => k.id === made.id)!;
    assert.deepEqual([changed.hash, changed.status, changed.rpm, changed.userId], ['f'.repeat(64), 'disabled', 5, ada.id], 'rotated, disabled, limited: still ada\'s');
  });

  it("a disabled creator stops the keys they made, every user disabled stops the account's keys; enabling undoes it, a key's own status apart", async () => {
    const [team, solo, empty] = [await store.createAccount('team', 0), await store.createAccount('solo', 0), await store.createAccount('empty', 0)];
    const [ada, bob, cy] = [await user(store, 'ada', team.id), await user(store, 'bob', team.id), await user(store, 'cy', solo.id)];
    const [kAda, kBob, kTeam, kCy, kSolo] = [
      await store.createKey(newKey(team.id, 'ada-key', ada.id)), await store.createKey(newKey(team.id, 'bob-key', bob.id)), await store.createKey(newKey(team.id, 'team-cli')),
      await store.createKey(newKey(solo.id, 'cy-key', cy.id)), await store.createKey(newKey(solo.id, 'solo-cli')),
    ];
    await store.createKey(newKey(empty.id, 'nobody\'s'));
    const whole = await store.snapshot();
    assert.ok(whole.keys.every((k) => k.disabledCreator === null) && whole.accounts.every((a) => a.usersDisabled === null), 'nobody disabled: nothing stopped');

    await store.setUserStatus('ada', 'disabled');
    let snap = await store.snapshot();
    assert.deepEqual(keysOf(snap).slice(0, 3), [['ada-key', ada.id, 'ada'], ['bob-key', bob.id, null], ['team-cli', null, null]], "only ada's key: bob is on the account still");
    assert.equal(accountOf(snap, team.id), null);
    assert.deepEqual(byId(await store.listKeys(team.id)).map((k) => k.disabledCreator), ['ada', null, null], 'listed the same');

    await store.setUserStatus('bob', 'disabled');
    await store.setUserStatus('cy', 'disabled');
    snap = await store.snapshot();
    assert.deepEqual(accountOf(snap, team.id), { users: 2, first: 'ada' }, 'every user of team: its CLI key too');
    assert.deepEqual(accountOf(snap, solo.id), { users: 1, first: 'cy' }, "solo's one user");
    assert.equal(accountOf(snap, empty.id), null, 'an account without users is not stopped by them');
    assert.deepEqual(keysOf(snap).filter(([n]) => n === 'bob-key' || n === 'cy-key' || n === 'solo-cli'), [['bob-key', bob.id, 'bob'], ['cy-key', cy.id, 'cy'], ['solo-cli', null, null]]);

    await store.setKeyStatus(kAda.id, 'disabled');
    await store.setUserStatus('ada', 'enabled');
    snap = await store.snapshot();
    const ada2 = snap.keys.find((k) => k.id === kAda.id)!;
    assert.deepEqual([ada2.status, ada2.disabledCreator], ['disabled', null], 'ada enabled: her key is its own again, disabled on its own');
    assert.equal(accountOf(snap, team.id), null, 'team has an enabled user again');
    assert.equal(snap.keys.find((k) => k.id === kBob.id)!.disabledCreator, 'bob');
    assert.equal(snap.keys.find((k) => k.id === kTeam.id)!.disabledCreator, null);

    // A new (enabled) user on solo frees its keys, cy's own excepted.
    await user(store, 'dee', solo.id);
    snap = await store.snapshot();
    assert.equal(accountOf(snap, solo.id), null);
    assert.deepEqual([kCy, kSolo].map((k) => snap.keys.find((s) => s.id === k.id)!.disabledCreator), ['cy', null]);
  });

  it(name === 'memory'
    ? 'memory answers whole: the users\' state is in every snapshot'
    : "the snapshot since the last one brings back the keys and the account a user's change reads anew, and only those", async () => {
    const [team, other] = [await store.createAccount('team', 0), await store.createAccount('other', 0)];
    const [ada, bob] = [await user(store, 'ada', team.id), await user(store, 'bob', team.id)];
    await user(store, 'eve', other.id);
    for (const [accountId, key, by] of [[team.id, 'ada-key', ada.id], [team.id, 'bob-key', bob.id], [team.id, 'team-cli'], [other.id, 'eve-cli']] as const) await store.createKey(newKey(accountId, key, by));
    let cursor = (await store.snapshot()).cursor;
    /** The snapshot since the last one (memory: whole), and its rows as [what, state]. */
    const since = async (): Promise<{ keys: unknown[]; accounts: unknown[] }> => {
      const snap = await store.snapshot(cursor);
      cursor = snap.cursor;
      const keys = byId(snap.keys).map((k) => [k.name, k.disabledCreator]);
      const accounts = byId(snap.accounts).map((a) => [a.name, a.usersDisabled]);
      return name === 'memory' ? { keys: keys.filter(([, d]) => d !== null), accounts: accounts.filter(([, u]) => u !== null) } : { keys, accounts };
    };
    // Memory: every stopped key and account; SQL stores: exactly the rows written since.
    const expect = (sql: { keys: unknown[]; accounts: unknown[] }, memory: { keys: unknown[]; accounts: unknown[] }) => (name === 'memory' ? memory : sql);

    await store.setUserStatus('ada', 'disabled');
    assert.deepEqual(await since(), expect({ keys: [['ada-key', 'ada']], accounts: [['team', null]] }, { keys: [['ada-key', 'ada']], accounts: [] }));
    await store.setUserStatus('bob', 'disabled');
    const all = { users: 2, first: 'ada' };
    assert.deepEqual(await since(), expect({ keys: [['bob-key', 'bob']], accounts: [['team', all]] }, { keys: [['ada-key', 'ada'], ['bob-key', 'bob']], accounts: [['team', all]] }));
    await store.setUserStatus('ada', 'enabled');
    assert.deepEqual(await since(), expect({ keys: [['ada-key', null]], accounts: [['team', null]] }, { keys: [['bob-key', 'bob']], accounts: [] }));
    await store.setUserStatus('ada', 'disabled');
    await since();
    await user(store, 'fay', team.id);
    assert.deepEqual(await since(), expect({ keys: [], accounts: [['team', null]] }, { keys: [['ada-key', 'ada'], ['bob-key', 'bob']], accounts: [] }), 'a new user frees the account');
  });

  // Another process or instance needs data outside the process: not the memory store's.
  if (name !== 'memory') it('a user disabled by another process or instance on the same data is seen by this store\'s next check and snapshot', async () => {
    const team = await store.createAccount('team', 0);
    const ada = await user(store, 'ada', team.id);
    const key = await store.createKey(newKey(team.id, 'ada-key', ada.id));
    const cli = await store.createKey(newKey(team.id, 'team-cli'));
    const first = await store.snapshot();
    store.changedSinceLastCheck();
    const other = await current().another!();
    await other.setUserStatus('ada', 'disabled');
    await poll("the other's change seen", () => store.changedSinceLastCheck());
    const snap = await store.snapshot(first.cursor);
    const keyState = (k: KeyRecord) => snap.keys.find((s) => s.id === k.id)?.disabledCreator;
    assert.deepEqual([keyState(key), keyState(cli), accountOf(snap, team.id)], ['ada', undefined, { users: 1, first: 'ada' }]);
  });
});

describe('the keys\' creators migrations, from the version before', () => {
  const ROWS = [
    "INSERT INTO accounts (id, name, balance, created_at) VALUES (1, 'team', 10, 1)",
    "INSERT INTO users (id, name, account_id, password_hash, created_at) VALUES (1, 'ada', 1, 'x', 1)",
    `INSERT INTO api_keys (id, account_id, name, key_hash, key_prefix, created_at, rpm, concurrency) VALUES (4, 1, 'old', '${'a'.repeat(64)}', 'sk-…', 1, 0, 0)`,
  ];
  /** The old key has no creator; disabling the account's one user stops it all the same. */
  async function check(store: Store): Promise<void> {
    assert.deepEqual((await store.listKeys()).map((k) => [k.id, k.userId, k.disabledCreator]), [[4, null, null]]);
    await store.setUserStatus('ada', 'disabled');
    const snap = await store.snapshot();
    assert.deepEqual(snap.accounts.map((a) => a.usersDisabled), [{ users: 1, first: 'ada' }]);
    const made = await store.createKey(newKey(1, 'new', 1));
    assert.deepEqual([made.id > 4, made.userId, made.disabledCreator], [true, 1, 'ada']);
  }

  it('SQLite: schema 21 to 22', async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes('api_keys_user'))!.version, 22);
    await sqliteBefore(22, ROWS, check);
  });

  it('PostgreSQL: schema 14 to 15', async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes('api_keys_user'))!.version, 15);
    await postgresBefore(15, ROWS, "SELECT setval(pg_get_serial_sequence('api_keys', 'id'), 5, false), setval(pg_get_serial_sequence('users', 'id'), 2, false), setval(pg_get_serial_sequence('accounts', 'id'), 2, false)", check);
  });
});
