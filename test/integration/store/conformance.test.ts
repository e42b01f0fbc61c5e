// One Store interface, one behaviour: the same suite runs against every implementation (memory,
// SQLite, PostgreSQL on the run's shared test server, a database per test). What one store does and
// another does not is a bug in one of them, whatever the gateway's tests on the default store say.
import assert from 'node:assert/strict';
import { MAX_BALANCE_MICRO } from '../../../src/contract/index.ts';
import { StoreError, type NewKey, type RequestLog, type Store } from '../../../src/gateway/store/types.ts';
import type { LogFilter } from '../../../src/gateway/store/logQuery.ts';
import { newChannel } from '../../support/channels.ts';
import { describeEachStore } from '../../support/stores.ts';

const storeError = (code: string, message?: RegExp) => (error: unknown) => error instanceof StoreError && error.code === code && (message === undefined || message.test(error.message));

function log(overrides: Partial<RequestLog>): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: null, stream: false, ...overrides,
  };
}

describeEachStore('the Store interface', (current, storeName) => {
  let store: Store;
  beforeEach(() => ({ store } = current()));

  it('accounts: create, top up within the ceiling, refuse a duplicate, an unknown name, a bad amount', async () => {
    const a = await store.createAccount('team', 5_000_000);
    assert.deepEqual([a.name, a.balance, a.totalSpent], ['team', 5_000_000, 0]);
    assert.equal((await store.topUp('team', 1)).balance, 5_000_001);
    await assert.rejects(store.createAccount('team', 0), storeError('conflict'));
    await assert.rejects(store.topUp('nobody', 1), storeError('not_found'));
    for (const bad of [0, -1, 0.5, Number.NaN, MAX_BALANCE_MICRO + 1]) await assert.rejects(store.topUp('team', bad), storeError('invalid'), String(bad));
    await assert.rejects(store.topUp('team', MAX_BALANCE_MICRO), storeError('invalid'), 'past the ceiling');
    await assert.rejects(store.createAccount('rich', MAX_BALANCE_MICRO + 1), storeError('invalid'));
    assert.equal((await store.getAccount('team'))!.balance, 5_000_001, 'nothing changed by the refusals');
    assert.equal(await store.getAccount('nobody'), null);
  });

  it('keys: create, list, disable, delete by id; a duplicate name on the account is a conflict', async () => {
    const account = await store.createAccount('team', 0);
    const key: NewKey = { accountId: account.id, name: 'k', hash: 'h'.repeat(64), prefix: 'sk-ab…', models: ['m'], expiresAt: null, rpm: 5, concurrency: 2 };
    const made = await store.createKey(key);
    assert.deepEqual([made.name, made.status, made.models, made.rpm, made.concurrency, made.lastUsedAt], ['k', 'enabled', ['m'], 5, 2, null]);
    await assert.rejects(store.createKey({ ...key, hash: 'i'.repeat(64) }), storeError('conflict'));
    await store.setKeyStatus(made.id, 'disabled');
    assert.equal((await store.listKeys()).find((k) => k.name === 'k')!.status, 'disabled');
    await assert.rejects(store.setKeyStatus(made.id + 1000, 'disabled'), storeError('not_found'));
    assert.equal(await store.deleteKey(made.id), true);
    assert.equal(await store.deleteKey(made.id), false);
  });

  it('keys: names are unique per account; the same name on two accounts are two keys, changed apart', async () => {
    const team = await store.createAccount('team', 0);
    const other = await store.createAccount('other', 0);
    const mine = await store.createKey({ accountId: team.id, name: 'laptop', hash: 'a'.repeat(64), prefix: 'sk-aa…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    const theirs = await store.createKey({ accountId: other.id, name: 'laptop', hash: 'b'.repeat(64), prefix: 'sk-bb…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    assert.notEqual(mine.id, theirs.id);
    await store.setKeyStatus(theirs.id, 'disabled');
    const byId = new Map((await store.listKeys()).map((k) => [k.id, k.status]));
    assert.deepEqual([byId.get(mine.id), byId.get(theirs.id)], ['enabled', 'disabled']);
    assert.equal(await store.deleteKey(mine.id), true);
    assert.deepEqual((await store.listKeys()).map((k) => [k.id, k.accountId]), [[theirs.id, other.id]]);
    const again = await store.createKey({ accountId: team.id, name: 'laptop', hash: 'c'.repeat(64), prefix: 'sk-cc…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    assert.ok(again.id > theirs.id, 'a deleted key id is not reused');
  });

  it('channels: add with every field, disable, remove; unknown names are not found', async () => {
    const added = await store.addChannel(newChannel({ name: 'up', baseUrl: 'http://h/v1', apiKey: 'sk-channel-secret', models: { a: 'b' }, priority: 3, weight: 2, timeoutMs: 1234, responsesApi: true }));
    const listed = (await store.listChannels()).find((c) => c.name === 'up')!;
    assert.deepEqual(
      [listed.id, listed.type, listed.baseUrl, listed.apiKey, listed.models, listed.priority, listed.weight, listed.timeoutMs, listed.status, listed.responsesApi],
      [added.id, 'openai', 'http://h/v1', 'sk-channel-secret', { a: 'b' }, 3, 2, 1234, 'enabled', true],
    );
    await assert.rejects(store.addChannel(newChannel({ name: 'up' })), storeError('conflict'));
    await store.setChannelStatus('up', 'disabled');
    assert.equal((await store.listChannels())[0]!.status, 'disabled');
    await store.removeChannel('up');
    assert.deepEqual(await store.listChannels(), []);
    await assert.rejects(store.removeChannel('up'), storeError('not_found'));
    await assert.rejects(store.setChannelStatus('up', 'enabled'), storeError('not_found'));
  });

  it('channels: update changes the fields given and keeps the others; the key replaced, removed or kept; seen by the snapshot', async () => {
    const added = await store.addChannel(newChannel({ name: 'up', baseUrl: 'http://old/v1', apiKey: 'sk-first-key', models: { a: 'a' }, priority: 1, weight: 1, timeoutMs: 1000, responsesApi: true }));
    store.changedSinceLastCheck();
    const moved = await store.updateChannel('up', { baseUrl: 'http://new/v1', models: { a: 'a', b: 'up-b' }, priority: 7, proxy: 'http://proxy:3128', responsesApi: null });
    assert.deepEqual(
      [moved.id, moved.baseUrl, moved.apiKey, moved.models, moved.priority, moved.weight, moved.timeoutMs, moved.proxy, moved.responsesApi, moved.status, moved.createdAt],
      [added.id, 'http://new/v1', 'sk-first-key', { a: 'a', b: 'up-b' }, 7, 1, 1000, 'http://proxy:3128', null, 'enabled', added.createdAt],
    );
    assert.equal(store.changedSinceLastCheck(), true, 'the request path is told');
    assert.deepEqual((await store.snapshot()).channels.map((c) => [c.name, c.baseUrl, c.apiKey]), [['up', 'http://new/v1', 'sk-first-key']]);
    assert.equal((await store.updateChannel('up', { apiKey: 'sk-second-key', weight: 3 })).apiKey, 'sk-second-key');
    assert.deepEqual((await store.listChannels()).map((c) => [c.apiKey, c.weight, c.priority]), [['sk-second-key', 3, 7]]);
    assert.equal((await store.updateChannel('up', { apiKey: null, type: 'echo', baseUrl: null })).apiKey, null);
    assert.deepEqual((await store.listChannels()).map((c) => [c.type, c.baseUrl, c.apiKey]), [['echo', null, null]]);
    await assert.rejects(store.updateChannel('nobody', { priority: 1 }), storeError('not_found'));
    await assert.rejects(store.updateChannel('up', {}), storeError('invalid'));
  });

  it('models: set and replace prices; context and default cap kept when not given again, tool calling written as given', async () => {
    await store.setModel({ name: 'm', kind: 'chat', inputPrice: 1, outputPrice: 2, imagePrice: null, contextLength: 4096, toolCalling: true, defaultMaxTokens: 300, cachedInputPrice: 0 });
    await store.setModel({ name: 'm', kind: 'chat', inputPrice: 3, outputPrice: 4, imagePrice: null, contextLength: null, toolCalling: true });
    await store.setModel({ name: 'img', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: 40_000, imagePrices: { hd: 80_000 }, contextLength: null, toolCalling: null });
    const byName = new Map((await store.listModels()).map((m) => [m.name, m]));
    const m = byName.get('m')!;
    assert.deepEqual([m.inputPrice, m.outputPrice, m.contextLength, m.toolCalling, m.defaultMaxTokens ?? null, m.cachedInputPrice ?? null], [3, 4, 4096, true, 300, null]);
    const img = byName.get('img')!;
    assert.deepEqual([img.kind, img.imagePrice, img.imagePrices], ['image', 40_000, { hd: 80_000 }]);
    // Null is "not said" (the price rules keep the old value by giving it again; an operator's `--tools unknown` clears it).
    await store.setModel({ name: 'm', kind: 'chat', inputPrice: 3, outputPrice: 4, imagePrice: null, contextLength: null, toolCalling: null });
    assert.equal((await store.listModels()).find((x) => x.name === 'm')!.toolCalling, null);
  });

  it('models: image input set and read back (by another instance too), kept on an absent update, cleared by null, replaced by a new flag', async () => {
    const chat = { name: 'm', kind: 'chat', inputPrice: 1, outputPrice: 2, imagePrice: null, contextLength: null, toolCalling: false } as const;
    const imageInputOf = async (name: string) => (await store.listModels()).find((m) => m.name === name)!.imageInput;
    await store.setModel(chat);
    assert.equal(await imageInputOf('m'), null, 'not said unless set');
    await store.setModel({ ...chat, imageInput: true });
    assert.equal(await imageInputOf('m'), true);
    await store.setModel({ ...chat, inputPrice: 4 });
    const kept = (await store.listModels()).find((m) => m.name === 'm')!;
    assert.deepEqual([kept.inputPrice, kept.imageInput, kept.toolCalling], [4, true, false], 'a price without the flag keeps it');
    assert.equal((await store.snapshot()).models.find((m) => m.name === 'm')!.imageInput, true);
    if (current().another) assert.equal((await (await current().another!()).listModels()).find((m) => m.name === 'm')!.imageInput, true, 'as the database holds it');
    await store.setModel({ ...chat, imageInput: false });
    await store.setModel({ ...chat, name: 'other', imageInput: false });
    assert.deepEqual([await imageInputOf('m'), await imageInputOf('other')], [false, false]);
    await store.setModel({ ...chat, imageInput: null });
    assert.deepEqual([await imageInputOf('m'), await imageInputOf('other')], [null, false], 'null makes it not said again');
  });

  it('write: logs and their debits in one step, key use recorded; listed newest first, per key, and pruned by time', async () => {
    const account = await store.createAccount('team', 1_000);
    const key = await store.createKey({ accountId: account.id, name: 'k', hash: 'h'.repeat(64), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0 });
    const now = Date.now();
    await store.write({
      logs: [
        log({ requestId: 'old', time: now - 10_000, accountId: account.id, keyId: key.id, keyName: 'k', cost: 100 }),
        log({ requestId: 'new', time: now, accountId: account.id, keyId: key.id, keyName: 'k', cost: 250, completionCap: 77, attempts: '[{"channel":"x"}]' }),
        log({ requestId: 'other', time: now, cost: 0 }),
      ],
      keysUsed: new Map([[key.id, now]]),
    });
    const after = (await store.getAccount('team'))!;
    assert.deepEqual([after.balance, after.totalSpent], [650, 350]);
    assert.equal((await store.listKeys())[0]!.lastUsedAt, now);
    assert.deepEqual((await store.listLogs(2)).map((l) => l.requestId), ['other', 'new']);
    const mine = await store.listKeyLogs(key.id, 10);
    assert.deepEqual(mine.map((l) => l.requestId), ['new', 'old']);
    assert.deepEqual([mine[0]!.accountName, mine[0]!.completionCap, mine[0]!.attempts], ['team', 77, '[{"channel":"x"}]']);
    assert.equal(await store.pruneLogs(now - 5_000), 1);
    assert.deepEqual((await store.listLogs(10)).map((l) => l.requestId).sort(), ['new', 'other']);
    assert.equal((await store.getAccount('team'))!.balance, 650, 'pruning never touches a balance');
  });

  it("an account's logs: only that account's, newest first, filtered by key, model, ok/error and time, paged by id", async () => {
    const team = await store.createAccount('team', 1_000);
    const other = await store.createAccount('other', 1_000);
    const k1 = await store.createKey({ accountId: team.id, name: 'k1', hash: 'a'.repeat(64), prefix: 'sk-aa…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    const k2 = await store.createKey({ accountId: team.id, name: 'k2', hash: 'b'.repeat(64), prefix: 'sk-bb…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    const ko = await store.createKey({ accountId: other.id, name: 'k1', hash: 'c'.repeat(64), prefix: 'sk-cc…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    const t0 = 1_700_000_000_000;
    await store.write({
      logs: [
        log({ requestId: 'a', time: t0, accountId: team.id, keyId: k1.id, model: 'x' }),
        log({ requestId: 'b', time: t0 + 1000, accountId: team.id, keyId: k2.id, model: 'y', status: 429, errorCode: 'rate_limited' }),
        log({ requestId: 'theirs', time: t0 + 1500, accountId: other.id, keyId: ko.id, model: 'x' }),
        log({ requestId: 'c', time: t0 + 2000, accountId: team.id, keyId: k1.id, model: 'y' }),
        log({ requestId: 'd', time: t0 + 3000, accountId: team.id, keyId: k2.id, model: 'x', status: 500, errorCode: 'internal_error' }),
      ],
      keysUsed: new Map(),
    });
    const ids = async (filter: Partial<LogFilter>) =>
      (await store.requestLogs.list({ accountId: team.id, limit: 100, ...filter })).map((l) => l.requestId);
    assert.deepEqual(await ids({}), ['d', 'c', 'b', 'a']);
    assert.deepEqual(await ids({ keyId: k1.id }), ['c', 'a']);
    assert.deepEqual(await ids({ keyId: ko.id }), [], "another account's key gives nothing");
    assert.deepEqual(await ids({ model: 'x' }), ['d', 'a']);
    assert.deepEqual(await ids({ ok: true }), ['c', 'a']);
    assert.deepEqual(await ids({ ok: false }), ['d', 'b']);
    assert.deepEqual(await ids({ since: t0 + 1000, until: t0 + 3000 }), ['c', 'b']);
    const first = await store.requestLogs.list({ accountId: team.id, limit: 3 });
    assert.deepEqual(first.map((l) => l.requestId), ['d', 'c', 'b']);
    assert.deepEqual(await ids({ beforeId: first.at(-1)!.id, limit: 3 }), ['a']);
    assert.deepEqual((await store.requestLogs.list({ accountId: other.id, limit: 10 })).map((l) => [l.requestId, l.accountName]), [['theirs', 'other']]);
  });

  it('users: create on an account, list, disable, change the password; duplicates and unknown names refused', async () => {
    const account = await store.createAccount('team', 0);
    const made = await store.createUser({ name: 'ada', accountId: account.id, admin: true, passwordHash: 'argon2id$m=1,t=1,p=1$c2FsdA==$aGFzaA==' });
    assert.deepEqual([made.name, made.accountId, made.admin, made.status], ['ada', account.id, true, 'enabled']);
    await assert.rejects(store.createUser({ name: 'ada', accountId: account.id, admin: false, passwordHash: 'x' }), storeError('conflict'));
    await store.setUserStatus('ada', 'disabled');
    await store.setUserPassword('ada', 'scrypt$N=2,r=1,p=1$c2FsdA==$bmV3');
    const [listed] = await store.listUsers();
    assert.deepEqual([listed!.status, listed!.passwordHash], ['disabled', 'scrypt$N=2,r=1,p=1$c2FsdA==$bmV3']);
    await assert.rejects(store.setUserStatus('nobody', 'enabled'), storeError('not_found'));
    await assert.rejects(store.setUserPassword('nobody', 'x'), storeError('not_found'));
  });

  it('user names are told apart without case: "Ada" beside "ada" is refused, by createUser and sign-up; a name is found in any case', async () => {
    const team = await store.createAccount('team', 0);
    await store.createUser({ name: 'ada', accountId: team.id, admin: false, passwordHash: 'x' });
    await assert.rejects(store.createUser({ name: 'Ada', accountId: team.id, admin: false, passwordHash: 'y' }), storeError('conflict', /a user named "ada" already exists \(user names are told apart without case\)/));
    await assert.rejects(store.signUps.signUp({ name: 'ADA', passwordHash: 'z', balance: 0, invitationHash: null }, Date.now()), storeError('conflict', /taken/));
    assert.deepEqual((await store.listUsers()).map((u) => u.name), ['ada'], 'nothing added by the refusals');
    assert.equal((await store.findUser({ name: 'aDa' }))?.name, 'ada');
  });

  // Only a database can hold them (written before the rule, here by hand): the memory store never could.
  if (storeName !== 'memory') it('names that differ only in case, kept from before: each found by its exact spelling, neither by another', async () => {
    const raw = current().raw!;
    const team = await store.createAccount('team', 0);
    const ada = await store.createUser({ name: 'ada', accountId: team.id, admin: false, passwordHash: 'x' });
    const insert = storeName === 'postgres' ? 'VALUES ($1, $2, FALSE, $3, $4)' : 'VALUES (?, ?, 0, ?, ?)';
    await raw(`INSERT INTO users (name, account_id, admin, password_hash, created_at) ${insert}`, ['Ada', team.id, 'y', 1]);
    assert.equal((await store.findUser({ name: 'ada' }))?.id, ada.id);
    assert.equal((await store.findUser({ name: 'Ada' }))?.name, 'Ada');
    assert.equal(await store.findUser({ name: 'ADA' }), null, 'which one is meant cannot be told');
  });

  it('finds one user by id or name, and one account\'s keys, each as the whole lists have them', async () => {
    const [team, other] = [await store.createAccount('team', 0), await store.createAccount('other', 0)];
    const ada = await store.createUser({ name: 'ada', accountId: team.id, admin: true, passwordHash: 'x' });
    const bob = await store.createUser({ name: 'bob', accountId: other.id, admin: false, passwordHash: 'y' });
    await store.setUserStatus('bob', 'disabled');
    const users = await store.listUsers();
    assert.deepEqual(await store.findUser({ id: ada.id }), users.find((u) => u.id === ada.id));
    assert.deepEqual(await store.findUser({ name: 'bob' }), users.find((u) => u.id === bob.id));
    assert.equal((await store.findUser({ name: 'bob' }))!.status, 'disabled');
    assert.equal(await store.findUser({ id: bob.id + 1000 }), null);
    assert.equal((await store.findUser({ name: 'ADA' }))?.id, ada.id, 'found without case');
    const key = (accountId: number, name: string): NewKey => ({ accountId, name, hash: name.repeat(64).slice(0, 64), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0 });
    const [t1, o1, t2] = [await store.createKey(key(team.id, 'a')), await store.createKey(key(other.id, 'b')), await store.createKey(key(team.id, 'c'))];
    const all = await store.listKeys();
    assert.deepEqual(all.map((k) => k.id), [t1.id, o1.id, t2.id]);
    assert.deepEqual(await store.listKeys(team.id), all.filter((k) => k.accountId === team.id));
    assert.deepEqual((await store.listKeys(other.id)).map((k) => k.id), [o1.id]);
    assert.deepEqual(await store.listKeys(other.id + 1000), []);
  });

  it('pages users with their accounts: oldest first, after an id, by a text in the user\'s or account\'s name, any case, % and _ literal', async () => {
    const [team, ops, solo] = [await store.createAccount('team', 5_000_000), await store.createAccount('Ops_1', 7), await store.createAccount('solo', 0)];
    const make = (name: string, accountId: number) => store.createUser({ name, accountId, admin: false, passwordHash: 'x' });
    const [ada, , , dave] = [await make('ada', team.id), await make('bob', ops.id), await make('carol', team.id), await make('Dave.Team', solo.id)];
    const page = async (q: string, after?: number, limit = 10) => (await store.pageUsers({ q, after, limit })).map(({ user, account }) => [user.name, account?.name ?? null, account?.balance ?? null]);
    assert.deepEqual(await page(''), [['ada', 'team', 5_000_000], ['bob', 'Ops_1', 7], ['carol', 'team', 5_000_000], ['Dave.Team', 'solo', 0]]);
    assert.deepEqual((await store.pageUsers({ q: '', limit: 10 }))[0]!.user, (await store.listUsers()).find((u) => u.id === ada.id), 'the whole user');
    assert.deepEqual((await page('TEAM')).map(([n]) => n), ['ada', 'carol', 'Dave.Team'], "an account's name or a user's, any case");
    assert.deepEqual((await page('_')).map(([n]) => n), ['bob'], '_ is no wildcard');
    assert.deepEqual(await page('%'), [], '% is no wildcard');
    assert.deepEqual((await page('', ada.id, 2)).map(([n]) => n), ['bob', 'carol'], 'after an id, at most the limit');
    assert.deepEqual(await page('', dave.id), []);
  });

  it('totals: how many users, accounts, keys and channels, and the money the accounts hold and spent', async () => {
    assert.deepEqual(await store.totals(), { users: 0, accounts: 0, keys: 0, channels: 0, balance: 0, spent: 0 });
    const [team] = [await store.createAccount('team', 5_000_000), await store.createAccount('other', 2)];
    await store.createUser({ name: 'ada', accountId: team.id, admin: true, passwordHash: 'x' });
    const key = await store.createKey({ accountId: team.id, name: 'k', hash: 'k'.repeat(64), prefix: 'sk-…', models: null, expiresAt: null, rpm: 0, concurrency: 0 });
    await store.addChannel(newChannel({ apiKey: null }));
    await store.write({ logs: [log({ accountId: team.id, keyId: key.id, cost: 1_234 })], keysUsed: new Map() });
    assert.deepEqual(await store.totals(), { users: 1, accounts: 2, keys: 1, channels: 1, balance: 5_000_002 - 1_234, spent: 1_234 });
  });

  it('sessions: created for a user, found by hash, touched, revoked; a password change or disabling revokes every one of the user', async () => {
    const account = await store.createAccount('team', 0);
    const ada = await store.createUser({ name: 'ada', accountId: account.id, admin: false, passwordHash: 'x' });
    const bob = await store.createUser({ name: 'bob', accountId: account.id, admin: false, passwordHash: 'x' });
    const now = 1_000_000;
    const made = await store.createSession({ idHash: 'a1', userId: ada.id, createdAt: now, expiresAt: now + 100 });
    assert.deepEqual(made, { idHash: 'a1', userId: ada.id, createdAt: now, lastSeenAt: now, expiresAt: now + 100, revokedAt: null });
    await assert.rejects(store.createSession({ idHash: 'a1', userId: ada.id, createdAt: now, expiresAt: now + 100 }), storeError('conflict'));
    await assert.rejects(store.createSession({ idHash: 'zz', userId: 9999, createdAt: now, expiresAt: now + 100 }), storeError('not_found'));
    await store.createSession({ idHash: 'a2', userId: ada.id, createdAt: now, expiresAt: now + 100 });
    await store.createSession({ idHash: 'b1', userId: bob.id, createdAt: now, expiresAt: now + 100 });
    await store.touchSession('a1', now + 10);
    await store.touchSession('a1', now + 5);
    assert.equal((await store.findSession('a1'))!.lastSeenAt, now + 10, 'never moves back');
    assert.equal(await store.findSession('nope'), null);

    await store.revokeSession('a2', now + 20);
    await store.revokeSession('a2', now + 30);
    assert.equal((await store.findSession('a2'))!.revokedAt, now + 20, 'revoked once');
    await store.setUserPassword('ada', 'new');
    assert.notEqual((await store.findSession('a1'))!.revokedAt, null, 'password change revokes');
    assert.equal((await store.findSession('b1'))!.revokedAt, null, "another user's session stays");
    await store.setUserStatus('bob', 'enabled');
    assert.equal((await store.findSession('b1'))!.revokedAt, null, 'enabling revokes nothing');
    await store.setUserStatus('bob', 'disabled');
    assert.notEqual((await store.findSession('b1'))!.revokedAt, null, 'disabling revokes');
  });

  it('sessions: ended ones (expired, idle, revoked) are deleted, live ones kept', async () => {
    const account = await store.createAccount('team', 0);
    const ada = await store.createUser({ name: 'ada', accountId: account.id, admin: false, passwordHash: 'x' });
    const now = 1_000_000;
    await store.createSession({ idHash: 'live', userId: ada.id, createdAt: now, expiresAt: now + 100 });
    await store.createSession({ idHash: 'expired', userId: ada.id, createdAt: now - 200, expiresAt: now });
    await store.createSession({ idHash: 'idle', userId: ada.id, createdAt: now - 50, expiresAt: now + 100 });
    await store.createSession({ idHash: 'revoked', userId: ada.id, createdAt: now, expiresAt: now + 100 });
    await store.revokeSession('revoked', now);
    await store.touchSession('live', now);
    assert.equal(await store.deleteEndedSessions(now, now - 10), 3);
    assert.ok(await store.findSession('live'));
    for (const gone of ['expired', 'idle', 'revoked']) assert.equal(await store.findSession(gone), null, gone);
  });

  it('keys: a new secret for a key keeps every other setting; a secret in use or an unknown id is refused', async () => {
    const account = await store.createAccount('team', 0);
    const old = await store.createKey({ accountId: account.id, name: 'k', hash: 'a'.repeat(64), prefix: 'sk-aa…', models: ['m'], expiresAt: 5e12, rpm: 5, concurrency: 2 });
    await store.createKey({ accountId: account.id, name: 'other', hash: 'c'.repeat(64), prefix: 'sk-cc…', models: null, expiresAt: null, rpm: 1, concurrency: 1 });
    store.changedSinceLastCheck();
    await store.setKeySecret(old.id, 'b'.repeat(64), 'sk-bb…');
    assert.equal(store.changedSinceLastCheck(), true, 'the request path sees the new secret');
    const rotated = (await store.listKeys()).find((k) => k.name === 'k')!;
    assert.deepEqual({ ...rotated }, { ...old, hash: 'b'.repeat(64), prefix: 'sk-bb…' });
    await assert.rejects(store.setKeySecret(old.id, 'c'.repeat(64), 'sk-cc…'), storeError('conflict'));
    await assert.rejects(store.setKeySecret(old.id + 1000, 'd'.repeat(64), 'sk-dd…'), storeError('not_found'));
  });

  it('snapshot and change detection: every admin write is seen', async () => {
    store.changedSinceLastCheck();
    assert.equal(store.changedSinceLastCheck(), false);
    await store.createAccount('team', 0);
    assert.equal(store.changedSinceLastCheck(), true);
    await store.addChannel(newChannel({ name: 'up' }));
    await store.setModel({ name: 'm', kind: 'chat', inputPrice: 0, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null });
    const snap = await store.snapshot();
    assert.deepEqual([snap.accounts.length, snap.channels.length, snap.models.length, snap.keys.length], [1, 1, 1, 0]);
  });
});
