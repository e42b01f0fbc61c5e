// The admins' console over real HTTP on a real SQLite file (issue 10, contract 4.10 "Admins"): an admin
// makes a user who then signs in; disabling ends the user's live session and blocks sign-in; a password
// reset ends their sessions and the new password works; a top-up changes the balance exactly, the user
// spends it, and the audit log names the admin; the last enabled admin is kept (409 last_admin); every
// admin route of the table refuses a user (403) and the signed-out (401); the CSRF rules hold; the audit
// log lists the CLI's changes as `cli`, filters and pages. On PostgreSQL, a console top-up reaches
// another instance on the same database as the CLI's does.
import assert from 'node:assert/strict';
import { ROUTES } from '../../../src/gateway/app.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import { main } from '../../../src/gateway/cli.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { assertError } from '../../support/answer.ts';
import { useTwoInstances } from '../../support/postgresGateways.ts';
import { type ConsoleAgent, consoleAgent, makeUser, PASSWORD } from './consoleAgent.ts';
import { call, chatBody, useSignedInAdmin, type Started } from './helpers.ts';

const NEW_PASSWORD = 'a password set by root';
const ADMIN_ROUTES = Object.entries(ROUTES).filter(([path]) => path.startsWith('/api/console/admin/')).flatMap(([path, methods]) => Object.keys(methods).map((m) => [m, path] as const));

/** The CLI in process, on the test's data folder, as the binary runs it. */
async function cli(dir: string, ...args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(['--data', dir, ...args], { out: (l) => void (out += `${l}\n`), err: (l) => void (err += `${l}\n`) }, { ...process.env, MODEL_GATEWAY_DATA: '' });
  assert.equal(code, 0, `${args.join(' ')}: ${err}`);
  return out;
}

describe("the admins' console over HTTP", function () {
  this.timeout(60_000);
  const admin = useSignedInAdmin();
  let t: Started;
  let store: Store;
  let root: ConsoleAgent;
  before(() => ({ t, store, root } = admin));

  const userNamed = async (name: string) => (await root.get(`/api/console/admin/users?q=${name}`)).json.data.find((u: { name: string }) => u.name === name);

  it('creates a user who can then sign in, listed with account, balance and last sign-in; refuses a taken name, a taken account, an unknown account, a short password, "cli"', async () => {
    const made = await root.post('/api/console/admin/users', { name: 'ada', password: PASSWORD });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual({ ...made.json.user, id: 0, created_at: 0 }, { id: 0, name: 'ada', account: 'ada', admin: false, status: 'enabled', balance: { micro_usd: 0, usd: '0.00' }, created_at: 0, last_sign_in_at: null });
    assert.ok(!made.text.includes(PASSWORD), 'the password is not echoed');

    const ada = consoleAgent(t.gw);
    const signedIn = await ada.signIn('ada');
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.deepEqual(signedIn.json.user, { name: 'ada', admin: false, account: 'ada' });
    assert.equal((await ada.get('/api/console/keys')).status, 200);
    assert.ok(Date.parse((await userNamed('ada')).last_sign_in_at) > Date.now() - 60_000, 'the sign-in is listed');

    const joined = await root.post('/api/console/admin/users', { name: 'ada2', password: PASSWORD, account: 'ada', admin: true });
    assert.equal(joined.status, 201, joined.text);
    assert.deepEqual([joined.json.user.account, joined.json.user.admin], ['ada', true]);

    assertError(await root.post('/api/console/admin/users', { name: 'ada', password: PASSWORD, account: 'ada' }), 409, 'user_exists');
    // Without an account: the user is named, not the account (whose advice would only lead to the same refusal).
    const again = await root.post('/api/console/admin/users', { name: 'ada', password: PASSWORD });
    assertError(again, 409, 'user_exists');
    assert.match(again.json.error.message, /A user with this name exists already/);
    await store.createAccount('shared', 0);
    assertError(await root.post('/api/console/admin/users', { name: 'shared', password: PASSWORD }), 409, 'account_exists');
    assertError(await root.post('/api/console/admin/users', { name: 'cy', password: PASSWORD, account: 'nowhere' }), 404, 'account_not_found');
    assertError(await root.post('/api/console/admin/users', { name: 'cy', password: 'too short' }), 400, 'password_too_short');
    assertError(await root.post('/api/console/admin/users', { name: 'cli', password: PASSWORD }), 400, 'invalid_request');
    assertError(await root.post('/api/console/admin/users', { name: 'Cli', password: PASSWORD }), 400, 'invalid_request');
    assertError(await root.post('/api/console/admin/users', { name: '<b>x</b>', password: PASSWORD }), 400, 'invalid_request');
    assertError(await root.post('/api/console/admin/users', { name: 'cy', password: PASSWORD, extra: 1 }), 400, 'invalid_request');
    assert.equal(await userNamed('cy'), undefined, 'no refused user was made');
    assert.equal(await store.getAccount('nowhere'), null);
  });

  it('disabling ends the user\'s live session at once (their next request 401) and blocks sign-in; enabling lets them in again', async () => {
    await makeUser(store, 'bob', 0);
    const bob = consoleAgent(t.gw);
    const elsewhere = consoleAgent(t.gw);
    assert.equal((await bob.signIn('bob')).status, 200);
    assert.equal((await elsewhere.signIn('bob')).status, 200);
    assert.equal((await bob.get('/api/console/keys')).status, 200);

    // Names are told apart without case, here as on the command line: BOB is bob.
    const disabled = await root.post('/api/console/admin/users/disable', { name: 'BOB' });
    assert.equal(disabled.status, 200, disabled.text);
    assert.deepEqual([disabled.json.user.name, disabled.json.user.status], ['bob', 'disabled']);
    assertError(await bob.get('/api/console/keys'), 401, 'not_signed_in');
    assertError(await elsewhere.post('/api/console/keys', { name: 'k' }), 401, 'not_signed_in');
    assertError(await consoleAgent(t.gw).signIn('bob'), 401, 'invalid_credentials');

    assert.equal((await root.post('/api/console/admin/users/enable', { name: 'bob' })).json.user.status, 'enabled');
    assertError(await bob.get('/api/console/keys'), 401, 'not_signed_in');
    assert.equal((await bob.signIn('bob')).status, 200, 'signs in again once enabled');
    assertError(await root.post('/api/console/admin/users/disable', { name: 'nobody' }), 404, 'user_not_found');
  });

  it('a password reset ends every session of the user; the old password is refused, the new one signs in; no password echoed or recorded', async () => {
    await makeUser(store, 'cat', 0);
    const cat = consoleAgent(t.gw);
    assert.equal((await cat.signIn('cat')).status, 200);
    const reset = await root.post('/api/console/admin/users/password', { name: 'Cat', password: NEW_PASSWORD });
    assert.equal(reset.status, 200, reset.text);
    assert.ok(!reset.text.includes(NEW_PASSWORD));
    assertError(await cat.get('/api/console/keys'), 401, 'not_signed_in');
    assertError(await consoleAgent(t.gw).signIn('cat', PASSWORD), 401, 'invalid_credentials');
    assert.equal((await consoleAgent(t.gw).signIn('cat', NEW_PASSWORD)).status, 200);
    assertError(await root.post('/api/console/admin/users/password', { name: 'cat', password: 'short' }), 400, 'password_too_short');
    assertError(await root.post('/api/console/admin/users/password', { name: 'nobody', password: NEW_PASSWORD }), 404, 'user_not_found');
    const audit = await root.get('/api/console/admin/audit?action=user.password_reset');
    assert.deepEqual(audit.json.data.map((r: { actor: string; target: string; details: unknown }) => [r.actor, r.target, r.details]), [['root', 'cat', null]]);
    assert.ok(!audit.text.includes(NEW_PASSWORD));
    assert.equal(await root.get('/api/console/session').then((a) => a.json.user.name), 'root', "root's own session is untouched");
  });

  it('tops up exactly: the user sees the balance and spends it, the audit log names the admin; bad amounts 400, an unknown account 404', async () => {
    await makeUser(store, 'dee', 0);
    const { secret } = await createKey(store, { account: 'dee', name: 'dee-key' });
    assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'insufficient_balance');

    const first = await root.post('/api/console/admin/accounts/topup', { account: 'dee', amount_usd: '12.345678' });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.json.account, { name: 'dee', balance: { micro_usd: 12_345_678, usd: '12.345678' } });
    const second = await root.post('/api/console/admin/accounts/topup', { account: 'dee', amount_usd: 0.1 });
    assert.deepEqual([second.json.amount.micro_usd, second.json.account.balance.micro_usd], [100_000, 12_445_678], 'a JSON number read exactly');
    assert.equal((await store.getAccount('dee'))!.balance, 12_445_678, 'in the store, to the micro-dollar');

    const dee = consoleAgent(t.gw);
    assert.equal((await dee.signIn('dee')).status, 200);
    assert.deepEqual((await dee.get('/api/console/account')).json.account, { name: 'dee', balance: { remaining: { micro_usd: 12_445_678, usd: '12.445678' }, used: { micro_usd: 0, usd: '0.00' } } });
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 200, 'the top-up pays at once');
    assert.equal((await userNamed('dee')).balance.micro_usd < 12_445_678, true, 'the listed balance is what is left after the request');

    for (const bad of ['0', 0, -1, '-1', '1e3', 1e-7, '1.0000001', 'ten', '', '1000000000.000001', true, null]) {
      assertError(await root.post('/api/console/admin/accounts/topup', { account: 'dee', amount_usd: bad }), 400, 'invalid_request');
    }
    assertError(await root.post('/api/console/admin/accounts/topup', { account: 'dee', amount_usd: '999999999' }), 400, 'invalid_request');
    assertError(await root.post('/api/console/admin/accounts/topup', { account: 'nobody', amount_usd: '1' }), 404, 'account_not_found');
    const audit = (await root.get('/api/console/admin/audit?action=account.topup')).json.data;
    assert.deepEqual(audit.map((r: { actor: string; target: string; details: { amount_micro_usd: number } }) => [r.actor, r.target, r.details.amount_micro_usd]), [['root', 'dee', 100_000], ['root', 'dee', 12_345_678]], 'refused top-ups are not recorded');
  });

  it('keeps the last enabled admin: disabling or demoting oneself is 409 last_admin; with another admin it works, and the demoted get 403', async () => {
    const admins = async () => (await root.get('/api/console/admin/users')).json.data.filter((u: { admin: boolean; status: string }) => u.admin && u.status === 'enabled').map((u: { name: string }) => u.name);
    // ada2, made an admin above, is disabled first: then root is the only enabled admin.
    assert.deepEqual(await admins(), ['root', 'ada2']);
    assert.equal((await root.post('/api/console/admin/users/disable', { name: 'ada2' })).status, 200);
    assert.deepEqual(await admins(), ['root']);
    assertError(await root.post('/api/console/admin/users/disable', { name: 'root' }), 409, 'last_admin');
    assertError(await root.post('/api/console/admin/users/admin', { name: 'root', admin: false }), 409, 'last_admin');
    assert.deepEqual([(await userNamed('root')).admin, (await userNamed('root')).status], [true, 'enabled'], 'nothing changed');

    await makeUser(store, 'eve', 0);
    assert.equal((await root.post('/api/console/admin/users/admin', { name: 'eve', admin: true })).json.user.admin, true);
    const eve = consoleAgent(t.gw);
    assert.equal((await eve.signIn('eve')).status, 200);
    assert.equal((await root.post('/api/console/admin/users/admin', { name: 'root', admin: false })).status, 200, 'root may step down now');
    assertError(await root.get('/api/console/admin/users'), 403, 'admin_required');
    assertError(await eve.post('/api/console/admin/users/disable', { name: 'eve' }), 409, 'last_admin');
    assert.equal((await eve.post('/api/console/admin/users/admin', { name: 'root', admin: true })).status, 200);
    assert.equal((await root.get('/api/console/admin/users')).status, 200, 'root is an admin again, in the same session');
    const audit = (await root.get('/api/console/admin/audit?limit=2')).json.data;
    assert.deepEqual(audit.map((r: { actor: string; action: string; target: string }) => [r.actor, r.action, r.target]), [['eve', 'user.admin_grant', 'root'], ['root', 'user.admin_revoke', 'root']]);
  });

  it('refuses a signed-in user who is not an admin with 403 on every admin route of the table, and nobody signed in with 401', async () => {
    await makeUser(store, 'fay', 0);
    const fay = consoleAgent(t.gw);
    assert.equal((await fay.signIn('fay')).status, 200);
    const anonymous = consoleAgent(t.gw);
    assert.ok(ADMIN_ROUTES.length >= 8);
    const body = { name: 'fay', admin: true, account: 'fay', amount_usd: '1000', password: NEW_PASSWORD };
    for (const [method, path] of ADMIN_ROUTES) {
      const asUser = method === 'GET' ? await fay.get(path) : await fay.post(path, body);
      assertError(asUser, 403, 'admin_required');
      assertError(method === 'GET' ? await anonymous.get(path) : await anonymous.post(path, body), 401, 'not_signed_in');
    }
    const me = await userNamed('fay');
    assert.deepEqual([me.admin, me.balance.micro_usd, me.status], [false, 0, 'enabled'], 'nothing was changed by the refused requests');
    assert.equal((await fay.get('/api/console/keys')).status, 200, 'and the user is still signed in');
  });

  it('holds the CSRF rules: another origin, no Origin without the console header, a text/plain or form body are refused, nothing changed', async () => {
    const before = (await store.getAccount('dee'))!.balance;
    const topup = { account: 'dee', amount_usd: '5' };
    assertError(await root.post('/api/console/admin/accounts/topup', topup, { origin: 'https://evil.example' }), 403, 'cross_site_request');
    assertError(await root.post('/api/console/admin/accounts/topup', topup, { origin: '', 'x-model-gateway-console': '' }), 403, 'cross_site_request');
    assertError(await root.post('/api/console/admin/accounts/topup', JSON.stringify(topup), { 'content-type': 'text/plain' }), 415, 'json_required');
    assertError(await root.post('/api/console/admin/users', 'name=mallory&password=xxxxxxxxxxxx', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'json_required');
    assertError(await root.post('/api/console/admin/users/disable', { name: 'dee' }, { origin: 'http://127.0.0.1.evil.example' }), 403, 'cross_site_request');
    assert.equal((await store.getAccount('dee'))!.balance, before);
    assert.equal(await userNamed('mallory'), undefined);
    assert.equal((await userNamed('dee')).status, 'enabled');
    const fromScript = await root.post('/api/console/admin/accounts/topup', topup, { origin: '', 'x-model-gateway-console': '1' });
    assert.equal(fromScript.status, 200, 'the console header stands for a page that sends no Origin');
  });

  it("lists the audit log newest first with the CLI's changes as cli; filters by actor and action; pages with before; refuses unknown filters", async () => {
    await cli(t.dir, 'account', 'topup', 'dee', '0.5');
    await cli(t.dir, 'user', 'disable', 'fay');
    const newest = (await root.get('/api/console/admin/audit?limit=2')).json;
    assert.deepEqual(newest.data.map((r: { actor: string; action: string; target: string }) => [r.actor, r.action, r.target]), [['cli', 'user.disable', 'fay'], ['cli', 'account.topup', 'dee']]);
    assert.deepEqual(newest.data[1].details, { amount_micro_usd: 500_000, amount: '$0.50' });
    assert.ok(newest.next_before > 0);
    const older = (await root.get(`/api/console/admin/audit?limit=2&before=${newest.next_before}`)).json.data;
    assert.ok(older.length === 2 && older[0].id < newest.data[1].id, 'the next page goes on from the last row');

    const byCli = (await root.get('/api/console/admin/audit?actor=cli')).json.data;
    assert.ok(byCli.length >= 2 && byCli.every((r: { actor: string }) => r.actor === 'cli'));
    const creates = (await root.get('/api/console/admin/audit?action=user.create&actor=root')).json.data;
    assert.deepEqual(creates.map((r: { target: string }) => r.target), ['ada2', 'ada']);
    assert.deepEqual(creates[1].details, { account: 'ada', admin: false, new_account: true });
    const all = (await root.get('/api/console/admin/audit?limit=200')).text;
    for (const secret of [PASSWORD, NEW_PASSWORD]) assert.ok(!all.includes(secret), 'no password anywhere in the audit log');
    assertError(await root.get('/api/console/admin/audit?action=user.delete'), 400, 'invalid_request');
    assertError(await root.get('/api/console/admin/audit?who=root'), 400, 'invalid_request');
    assertError(await root.get('/api/console/admin/audit?limit=0'), 400, 'invalid_request');
  });

  it('lists users by name or account, in pages', async () => {
    const byAccount = (await root.get('/api/console/admin/users?q=ADA')).json.data.map((u: { name: string }) => u.name);
    assert.deepEqual(byAccount, ['ada', 'ada2'], 'any case, user or account name');
    const first = (await root.get('/api/console/admin/users?limit=2')).json;
    assert.equal(first.data.length, 2);
    const rest = (await root.get(`/api/console/admin/users?limit=200&after=${first.next_after}`)).json;
    assert.equal(rest.next_after, null);
    const names = [...first.data, ...rest.data].map((u: { name: string }) => u.name);
    assert.deepEqual(names, (await store.listUsers()).map((u) => u.name), 'every user once, oldest first');
    assertError(await root.get('/api/console/admin/users?limit=201'), 400, 'invalid_request');
  });
});

describe('on PostgreSQL: a console top-up is the CLI\'s top-up', function () {
  this.timeout(60_000);
  const two = useTwoInstances();

  it('an admin on one instance tops up; another instance serves the very next request from it and reports the balance; the audit row is shared', async () => {
    const { a, b, store } = two;
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'team', 0);
    const { secret } = await createKey(store, { account: 'team', name: 'team-key' });
    const ask = () => call(b, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
    assertError(await ask(), 403, 'insufficient_balance');

    const root = consoleAgent(a);
    assert.equal((await root.signIn('root')).status, 200);
    const topped = await root.post('/api/console/admin/accounts/topup', { account: 'team', amount_usd: '0.25' });
    assert.equal(topped.status, 200, topped.text);
    assert.equal(topped.json.account.balance.micro_usd, 250_000);
    assert.equal((await ask()).status, 200, 'the other instance was told at once, as by the CLI');

    const team = consoleAgent(b);
    assert.equal((await team.signIn('team')).status, 200);
    const seen = (await team.get('/api/console/account')).json.account.balance;
    assert.ok(seen.remaining.micro_usd > 0 && seen.remaining.micro_usd + seen.used.micro_usd === 250_000, JSON.stringify(seen));
    const rootOnB = consoleAgent(b);
    assert.equal((await rootOnB.signIn('root')).status, 200);
    const audit = (await rootOnB.get('/api/console/admin/audit')).json.data;
    assert.deepEqual(audit.map((r: { actor: string; action: string; target: string }) => [r.actor, r.action, r.target]), [['root', 'account.topup', 'team']]);
  });
});
