// Self sign-up over real HTTP on a real SQLite file (issue 10): refused while the admins' setting is off
// (the default); open, it makes the user on an account of the same name with the setting's balance, signs
// them in with the session cookie sign-in sets, and the account's request logs add up to that balance
// exactly; a taken name is one answer (user's or account's alike); with invitations, a missing, mistyped,
// used or disabled code is refused (one answer for the last three) and 20 sign-ups racing for one code
// make one user; every try is counted per client address (429 with Retry-After past 20, others unaffected);
// the CSRF proof is asked as at sign-in; and each sign-up is in the audit log.
import assert from 'node:assert/strict';
import { FIRST_WAIT_MS, FREE_FAILURES_PER_ADDRESS } from '../../../src/gateway/accounts/signInThrottle.ts';
import { assertRefusal } from '../../support/documented.ts';
import { type Answer } from '../../support/answer.ts';
import { consoleAgent, type ConsoleAgent, PASSWORD, signedInAdmin } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';
import { poll } from '../../support/poll.ts';

const SIGN_UP = '/api/console/signup';
const SETTINGS = '/api/console/admin/settings';
const INVITATIONS = '/api/console/admin/invitations';
const INVITATION = /^MGI(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;

/** The refusal `code` of the sign-up route, documented by its row. */
const refused = (answer: Answer, status: number, code: string) => assertRefusal(answer, 'POST', SIGN_UP, status, code);
/** The message of a refusal without its request id: what tells two refusals apart, if anything does. */
const words = (answer: Answer): string => answer.json.error.message.replace(/ \(request id: .*\)$/, '');

describe('self sign-up', function () {
  this.timeout(30_000);
  let t: Started;
  let now: number;
  let root: ConsoleAgent;
  beforeEach(async () => {
    now = Date.now();
    t = await startTestGateway({ clock: () => now });
    root = await signedInAdmin(t.gw, t.admin());
  });
  afterEach(async () => t.close());

  const settings = async (body: Record<string, unknown>) => {
    const answer = await root.post(SETTINGS, body);
    assert.equal(answer.status, 200, answer.text);
    return answer.json;
  };

  it('is refused while sign-up is off, the default: 403 sign_up_closed, nothing made; the sign-in page is told it is off', async () => {
    const visitor = consoleAgent(t.gw);
    const session = await visitor.get('/api/console/session');
    assert.deepEqual(session.json, { object: 'console.session', user: null, sign_up: 'off', notice: null });
    refused(await visitor.post(SIGN_UP, { name: 'carol', password: PASSWORD }), 403, 'sign_up_closed');
    assert.equal(visitor.cookie, undefined);
    assert.deepEqual((await t.admin().listUsers()).map((u) => u.name), ['root']);
  });

  it("open: 201, signed in with sign-in's cookie, on a new account of the name holding new_user_balance; its logs add up to it exactly", async () => {
    await settings({ sign_up: 'open', new_user_balance_usd: '2.5', notice: 'Welcome <b>all</b>' });
    const visitor = consoleAgent(t.gw);
    assert.deepEqual((await visitor.get('/api/console/session')).json, { object: 'console.session', user: null, sign_up: 'open', notice: 'Welcome <b>all</b>' });
    const answer = await visitor.post(SIGN_UP, { name: 'carol', password: PASSWORD });
    assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(answer.json, { object: 'console.session', user: { name: 'carol', admin: false, account: 'carol' } });
    assert.match(answer.headers.get('set-cookie')!, /^mg_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/);
    assert.ok(!answer.text.includes(PASSWORD));

    const session = await visitor.get('/api/console/session');
    assert.equal(session.json.user.name, 'carol', 'the cookie is a live session');
    assert.deepEqual((await visitor.get('/api/console/account')).json.account, { name: 'carol', balance: { remaining: { micro_usd: 2_500_000, usd: '2.50' }, used: { micro_usd: 0, usd: '0.00' } } });
    assert.equal((await consoleAgent(t.gw).signIn('carol')).status, 200, 'the password signs in too');

    // The new account's money is the request path's at once: a key of it is served and charged.
    const made = await visitor.post('/api/console/keys', { name: 'laptop' });
    assert.equal(made.status, 201, made.text);
    for (let i = 0; i < 3; i++) assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: made.json.secret, body: chatBody('echo', `hello ${i}`) })).status, 200);
    const store = t.admin();
    const logs = await poll('the three log rows', async () => {
      const rows = (await store.listLogs(100)).filter((l) => l.accountName === 'carol');
      return rows.length === 3 ? rows : undefined;
    }, 5000, 20);
    const charged = logs.reduce((sum, l) => sum + l.cost, 0);
    assert.ok(charged > 0);
    const account = (await store.getAccount('carol'))!;
    assert.deepEqual([account.balance, account.totalSpent], [2_500_000 - charged, charged], 'the balance fell by exactly the logged charges');

    const audit = (await root.get('/api/console/admin/audit?action=user.sign_up')).json.data;
    assert.deepEqual(audit.map((r: { actor: string; target: string; details: unknown }) => [r.actor, r.target, r.details]), [
      ['carol', 'carol', { account: 'carol', balance_micro_usd: 2_500_000, balance: '$2.50', invited: false }],
    ]);
  });

  it('a taken name is one answer, a user\'s or an account\'s (409); a short password is 400; the CSRF proof is asked as at sign-in', async () => {
    await settings({ sign_up: 'open' });
    const visitor = consoleAgent(t.gw);
    assert.equal((await visitor.post(SIGN_UP, { name: 'carol', password: PASSWORD })).status, 201);
    // carol (a user), local (the bootstrap's account, no user), root (an admin), cli (the command line's name, in any case).
    const taken = await Promise.all(['carol', 'local', 'root', 'cli', 'CLI', 'Cli'].map((name) => consoleAgent(t.gw).post(SIGN_UP, { name, password: PASSWORD })));
    for (const answer of taken) refused(answer, 409, 'sign_up_name_taken');
    assert.equal(new Set(taken.map(words)).size, 1, taken.map(words).join(' | '));
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: 'short' }), 400, 'password_too_short');
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'no spaces', password: PASSWORD }), 400, 'invalid_request');
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: PASSWORD }, { origin: 'https://evil.example' }), 403, 'cross_site_request');
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: PASSWORD }, { origin: '' }), 403, 'cross_site_request');
    refused(await consoleAgent(t.gw).post(SIGN_UP, `{"name":"dave","password":"${PASSWORD}"}`, { 'content-type': 'text/plain' }), 415, 'json_required');
    assert.deepEqual((await t.admin().listUsers()).map((u) => u.name).sort(), ['carol', 'root']);
    assert.equal(await t.admin().getAccount('dave'), null);
  });

  it('invitation: none given 400 invitation_required; a mistyped, used or disabled code one answer (400 invitation_invalid); a good one, typed loosely, works once', async () => {
    await settings({ sign_up: 'invitation', new_user_balance_usd: 1 });
    assert.equal((await consoleAgent(t.gw).get('/api/console/session')).json.sign_up, 'invitation');
    const made = await root.post(INVITATIONS, { count: 2, batch: 'march' });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.headers.get('cache-control'), 'no-store');
    const [first, second] = made.json.codes as { id: number; code: string }[];
    for (const c of [first!, second!]) assert.match(c.code, INVITATION);

    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: PASSWORD }), 400, 'invitation_required');
    const mistyped = await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: PASSWORD, invitation_code: first!.code.replace(/.$/, (c) => (c === '0' ? '1' : '0')) });
    refused(mistyped, 400, 'invitation_invalid');
    // Lower case, spaces for dashes: what a person copies by hand.
    const dave = consoleAgent(t.gw);
    const ok = await dave.post(SIGN_UP, { name: 'dave', password: PASSWORD, invitation_code: first!.code.toLowerCase().replace(/-/g, ' ') });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await dave.get('/api/console/account')).json.account.balance.remaining.micro_usd, 1_000_000);
    const used = await consoleAgent(t.gw).post(SIGN_UP, { name: 'erin', password: PASSWORD, invitation_code: first!.code });
    refused(used, 400, 'invitation_invalid');

    const disabled = await root.post(`${INVITATIONS}/disable`, { id: second!.id });
    assert.deepEqual(disabled.json, { object: 'console.invitations_disabled', id: second!.id, disabled: 1 });
    const off = await consoleAgent(t.gw).post(SIGN_UP, { name: 'erin', password: PASSWORD, invitation_code: second!.code });
    refused(off, 400, 'invitation_invalid');
    // A redemption code is no invitation.
    const money = await root.post('/api/console/admin/codes', { value_usd: '5' });
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'erin', password: PASSWORD, invitation_code: money.json.codes[0].code }), 400, 'invitation_invalid');
    assert.equal(new Set([mistyped, used, off].map(words)).size, 1, 'mistyped, used and disabled answer alike');
    // A taken name with a bad code is the code's refusal: names are not told without an invitation.
    refused(await consoleAgent(t.gw).post(SIGN_UP, { name: 'dave', password: PASSWORD, invitation_code: first!.code }), 400, 'invitation_invalid');

    const list = (await root.get(`${INVITATIONS}?batch=march`)).json;
    assert.deepEqual(list.data.map((c: { id: number; status: string; used_by: string | null; created_by: string }) => [c.id, c.status, c.used_by, c.created_by]), [
      [second!.id, 'disabled', null, 'root'], [first!.id, 'used', 'dave', 'root'],
    ]);
    assert.ok(!JSON.stringify(list).includes(first!.code.slice(4)), 'never a code in the list');
    assert.deepEqual((await root.get(`${INVITATIONS}?status=used`)).json.data.length, 1);
    assertRefusal(await root.post(`${INVITATIONS}/disable`, { batch: 'april' }), 'POST', `${INVITATIONS}/disable`, 404, 'invitation_not_found');
    assertRefusal(await root.post(INVITATIONS, { count: 0 }), 'POST', INVITATIONS, 400, 'invalid_request');
    const actions = (await root.get('/api/console/admin/audit')).json.data.map((r: { actor: string; action: string }) => `${r.actor} ${r.action}`);
    assert.deepEqual(actions.filter((a: string) => !a.includes('code.')), ['root invitation.disable', 'dave user.sign_up', 'root invitation.create', 'root settings.change']);
    assert.ok(!JSON.stringify(await t.admin().listAudit({ limit: 100 })).includes(first!.code.slice(4)), 'never a code in the audit log');
    assert.deepEqual((await t.admin().listUsers()).map((u) => u.name).sort(), ['dave', 'root']);
  });

  it('20 sign-ups at once with one invitation make exactly one user; the others are told the code cannot be used', async () => {
    await settings({ sign_up: 'invitation' });
    const [{ code }] = (await root.post(INVITATIONS, { count: 1 })).json.codes;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => consoleAgent(t.gw).post(SIGN_UP, { name: `racer${i}`, password: PASSWORD, invitation_code: code })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array<number>(19).fill(400)], answers.map((a) => a.text).join('\n'));
    for (const a of answers.filter((a) => a.status === 400)) refused(a, 400, 'invitation_invalid');
    const winner = answers.find((a) => a.status === 201)!.json.user.name;
    assert.deepEqual((await t.admin().listUsers()).map((u) => u.name).sort(), [winner, 'root'].sort());
    assert.deepEqual((await t.admin().snapshot()).accounts.map((a) => a.name).sort(), ['local', 'root', winner].sort());
  });

  it(`every try is counted per client address: past ${FREE_FAILURES_PER_ADDRESS}, 429 sign_up_throttled with Retry-After; another address is not held; the wait ends`, async () => {
    await settings({ sign_up: 'invitation' });
    const [{ code }] = (await root.post(INVITATIONS, { count: 1 })).json.codes;
    const guesser = consoleAgent(t.gw, { localAddress: '127.0.0.2' });
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++) refused(await guesser.post(SIGN_UP, { name: 'mallory', password: PASSWORD, invitation_code: `MGI-0000-0000-0000-0000-${String(i).padStart(4, '0')}` }), 400, 'invitation_invalid');
    const held = await guesser.post(SIGN_UP, { name: 'mallory', password: PASSWORD, invitation_code: code });
    refused(held, 429, 'sign_up_throttled');
    assert.equal(held.headers.get('retry-after'), String(FIRST_WAIT_MS / 1000));
    assert.deepEqual((await t.admin().listUsers()).map((u) => u.name), ['root'], 'the right code waited too');

    const elsewhere = consoleAgent(t.gw, { localAddress: '127.0.0.3' });
    assert.equal((await elsewhere.post(SIGN_UP, { name: 'frank', password: PASSWORD, invitation_code: code })).status, 201);
    now += FIRST_WAIT_MS + 1;
    refused(await guesser.post(SIGN_UP, { name: 'mallory', password: PASSWORD, invitation_code: code }), 400, 'invitation_invalid');
  });
});
