// Signing in to the console over real HTTP (issue 10): the session cookie and its flags, one answer for
// a wrong name and a wrong password, sign-out, the idle and absolute expiry (on the gateway's test
// clock), sessions ended by a password change or disabling, throttled failures, and CSRF refusals.
import assert from 'node:assert/strict';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../../../src/gateway/accounts/sessions.ts';
import { FIRST_WAIT_MS, FREE_FAILURES_PER_ADDRESS, FREE_FAILURES_PER_NAME } from '../../../src/gateway/accounts/signInThrottle.ts';
import { HASHES_AT_ONCE, HASHES_WAITING, hashPassword } from '../../../src/gateway/accounts/passwords.ts';
import { assertError, type Answer } from '../../support/answer.ts';
import { consoleAgent, makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

const HOUR = 60 * 60 * 1000;

/** Who is signed in: nobody (the session endpoint answers the question, with user null). */
function assertSignedOut(answer: Answer): void {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.user, null, answer.text);
}

describe('console sign-in', function () {
  this.timeout(30_000);
  let t: Started;
  let now: number;
  beforeEach(async () => {
    now = Date.now();
    t = await startTestGateway({ clock: () => now });
    await makeUser(t.admin(), 'ada', 0, true);
  });
  afterEach(async () => t.close());

  it('signs in with a session cookie (HttpOnly, SameSite=Strict, Path=/; Secure behind https), answers the user, and signs out for real', async () => {
    const browser = consoleAgent(t.gw);
    const answer = await browser.signIn('ada');
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.user, { name: 'ada', admin: true, account: 'ada' });
    const cookie = answer.headers.get('set-cookie')!;
    assert.match(cookie, /^mg_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/);
    assert.ok(!answer.text.includes(browser.cookie!), 'the session id is not in the body');

    const session = await browser.get('/api/console/session');
    assert.equal(session.status, 200, session.text);
    assert.equal(session.json.user.name, 'ada');

    // X-Forwarded-Proto is any client's word unless the operator said there is a proxy (serve --trust-proxy).
    const viaHttps = (url: string) => ({ 'x-forwarded-proto': 'https', origin: url.replace('http:', 'https:') });
    const untrusted = await consoleAgent(t.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, viaHttps(t.gw.url));
    assertError(untrusted, 403, 'cross_site_request');
    assert.match(untrusted.json.error.message, /--trust-proxy/);
    const proxied = await startTestGateway({ trustProxy: true });
    try {
      await makeUser(proxied.admin(), 'ada', 0, true);
      const behindProxy = await consoleAgent(proxied.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, viaHttps(proxied.gw.url));
      assert.equal(behindProxy.status, 200, behindProxy.text);
      assert.match(behindProxy.headers.get('set-cookie')!, /; Secure$/);
    } finally {
      await proxied.close();
    }

    const old = browser.cookie!;
    const out = await browser.post('/api/console/logout');
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie')!, /^mg_session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/);
    assertSignedOut(await browser.get('/api/console/session', { cookie: `mg_session=${old}` }));
    assertError(await browser.get('/api/console/keys', { cookie: `mg_session=${old}` }), 401, 'not_signed_in');
  });

  it('a new session id at every sign-in (no fixation): a cookie set before sign-in is not the one after', async () => {
    const browser = consoleAgent(t.gw);
    browser.cookie = 'planted-by-someone-else';
    await browser.signIn('ada');
    assert.notEqual(browser.cookie, 'planted-by-someone-else');
    assertSignedOut(await browser.get('/api/console/session', { cookie: 'mg_session=planted-by-someone-else' }));
  });

  it('the name is taken without case, as a phone that capitalizes it types it: "Ada" signs in as ada, and counts against ada\'s failures', async () => {
    for (let i = 0; i < FREE_FAILURES_PER_NAME; i++) assertError(await consoleAgent(t.gw).signIn(i % 2 ? 'ADA' : 'ada', `wrong password ${i}`), 401, 'invalid_credentials');
    assertError(await consoleAgent(t.gw).signIn('aDa'), 429, 'sign_in_throttled');
    now += FIRST_WAIT_MS;
    const browser = consoleAgent(t.gw);
    const answer = await browser.signIn('Ada');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.user.name, 'ada');
    assert.equal((await browser.get('/api/console/session')).json.user.name, 'ada');
  });

  it('a wrong password (a short one too: never refused for its length), an unknown name and a disabled user get the same answer', async () => {
    await makeUser(t.admin(), 'bob');
    await t.admin().setUserStatus('bob', 'disabled');
    const answers = [
      await consoleAgent(t.gw).signIn('ada', 'wrong password here'),
      await consoleAgent(t.gw).signIn('ada', 'short'),
      await consoleAgent(t.gw).signIn('nobody-at-all'),
      await consoleAgent(t.gw).signIn('bob'),
    ];
    for (const a of answers) {
      assertError(a, 401, 'invalid_credentials');
      assert.equal(a.headers.get('set-cookie'), null);
    }
    const words = answers.map((a) => a.json.error.message.replace(/\(request id: .*\)$/, ''));
    assert.deepEqual(new Set(words).size, 1, words.join(' | '));
  });

  it('a session ends after a day without use, and after 7 days however much it is used', async () => {
    const idle = consoleAgent(t.gw);
    await idle.signIn('ada');
    now += SESSION_IDLE_MS - 60_000;
    assert.equal((await idle.get('/api/console/session')).json.user?.name, 'ada', 'used just within the idle time');
    now += SESSION_IDLE_MS + 1;
    assertSignedOut(await idle.get('/api/console/session'));

    const busy = consoleAgent(t.gw);
    await busy.signIn('ada');
    const end = now + SESSION_LIFETIME_MS;
    while (now + 12 * HOUR < end) {
      now += 12 * HOUR;
      assert.equal((await busy.get('/api/console/session')).json.user?.name, 'ada', `alive at ${new Date(now).toISOString()}`);
    }
    now = end;
    assertSignedOut(await busy.get('/api/console/session'));
  });

  it('a password change or disabling the user (CLI, same data folder) ends their sessions', async () => {
    const first = consoleAgent(t.gw);
    await first.signIn('ada');
    await t.admin().setUserPassword('ada', await hashPassword('another good password'));
    assertSignedOut(await first.get('/api/console/session'));
    assertError(await consoleAgent(t.gw).signIn('ada'), 401, 'invalid_credentials');

    const second = consoleAgent(t.gw);
    assert.equal((await second.signIn('ada', 'another good password')).status, 200);
    await t.admin().setUserStatus('ada', 'disabled');
    assertSignedOut(await second.get('/api/console/session'));
  });

  it(`throttles a name after ${FREE_FAILURES_PER_NAME} failures with a growing Retry-After, refuses even the right password meanwhile, and lets it in after the wait`, async () => {
    const browser = consoleAgent(t.gw);
    for (let i = 0; i < FREE_FAILURES_PER_NAME; i++) assertError(await browser.signIn('ada', `wrong password ${i}`), 401, 'invalid_credentials');
    const locked = await browser.signIn('ada');
    assertError(locked, 429, 'sign_in_throttled');
    assert.equal(locked.headers.get('retry-after'), String(FIRST_WAIT_MS / 1000));
    assert.equal(browser.cookie, undefined);

    now += FIRST_WAIT_MS;
    assertError(await browser.signIn('ada', 'wrong again, after the wait'), 401, 'invalid_credentials');
    const longer = await browser.signIn('ada');
    assertError(longer, 429, 'sign_in_throttled');
    assert.equal(longer.headers.get('retry-after'), String((2 * FIRST_WAIT_MS) / 1000), 'the wait doubles');

    // An unknown name is throttled the same way: the throttle tells nothing about which names exist.
    for (let i = 0; i < FREE_FAILURES_PER_NAME; i++) await browser.signIn('ghost', 'wrong password!');
    assertError(await browser.signIn('ghost', 'wrong password!'), 429, 'sign_in_throttled');

    now += 2 * FIRST_WAIT_MS;
    assert.equal((await browser.signIn('ada')).status, 200, 'the real user gets in after the wait');
  });

  it(`tries sent at once are held as if sent one by one: of 30 wrong passwords at once, ${FREE_FAILURES_PER_NAME} are checked, the rest wait; then the right one gets in after the wait`, async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => consoleAgent(t.gw).signIn('ada', `wrong password ${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(FREE_FAILURES_PER_NAME).fill(401), ...Array(30 - FREE_FAILURES_PER_NAME).fill(429)], answers.map((a) => a.text).join('\n'));
    now += FIRST_WAIT_MS;
    assert.equal((await consoleAgent(t.gw).signIn('ada')).status, 200, 'a right password takes its count back: the next wrong one is the sixth, not the seventh');
    assertError(await consoleAgent(t.gw).signIn('ada', 'wrong once more'), 401, 'invalid_credentials');
  });

  it(`behind a proxy (trustProxy), failures count against the client's address: one client's ${FREE_FAILURES_PER_ADDRESS} failures lock it out, not everyone behind the proxy`, async () => {
    const proxied = await startTestGateway({ trustProxy: true });
    try {
      await makeUser(proxied.admin(), 'ada', 0, true);
      const from = (address: string) => ({ 'x-forwarded-for': `203.0.113.9, ${address}` });
      let last: Answer | undefined;
      // Different names each time: the names' own throttle stays out of it, the address's counts.
      for (let i = 0; i <= FREE_FAILURES_PER_ADDRESS; i++) last = await consoleAgent(proxied.gw).post('/api/console/login', { name: `guess-${i}`, password: 'wrong password here' }, from('10.0.0.1'));
      assertError(last!, 429, 'sign_in_throttled');
      assertError(await consoleAgent(proxied.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, from('10.0.0.1')), 429, 'sign_in_throttled');
      const other = await consoleAgent(proxied.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, from('10.0.0.2'));
      assert.equal(other.status, 200, other.text);
    } finally {
      await proxied.close();
    }
  });

  it(`a flood of sign-ins from many addresses: ${HASHES_AT_ONCE} passwords hashed at once and ${HASHES_WAITING} waiting, the rest refused at once with 503 password_checks_busy (not counted as failures)`, async () => {
    const proxied = await startTestGateway({ trustProxy: true });
    try {
      // More at once than can run and wait: those past the line are refused (how many depends on how fast the first
      // hashes end while the rest still arrive), every other one is checked.
      const flood = HASHES_AT_ONCE + HASHES_WAITING + 30;
      const answers = await Promise.all(Array.from({ length: flood }, (_, i) =>
        consoleAgent(proxied.gw).post('/api/console/login', { name: `guess-${i}`, password: 'wrong password here' }, { 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` })));
      const busy = answers.filter((a) => a.status === 503);
      const statuses = answers.map((a) => a.status).join(' ');
      assert.ok(busy.length > 0, statuses);
      assert.equal(answers.filter((a) => a.status === 401).length, flood - busy.length, statuses);
      assert.ok(flood - busy.length >= HASHES_AT_ONCE + HASHES_WAITING, `every one that could wait was checked: ${statuses}`);
      for (const answer of busy) {
        assertError(answer, 503, 'password_checks_busy');
        assert.equal(answer.headers.get('retry-after'), '1');
      }
      const again = await consoleAgent(proxied.gw).post('/api/console/login', { name: `guess-${answers.indexOf(busy[0]!)}`, password: 'wrong password here' }, { 'x-forwarded-for': '10.1.0.200' });
      assertError(again, 401, 'invalid_credentials');
    } finally {
      await proxied.close();
    }
  });

  it('refuses cross-site requests: another Origin, a form post, no Origin without the console header', async () => {
    assertError(await consoleAgent(t.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    const form = await consoleAgent(t.gw).post('/api/console/login', `name=ada&password=${encodeURIComponent(PASSWORD)}`, { 'content-type': 'application/x-www-form-urlencoded' });
    assertError(form, 415, 'json_required');
    const plain = await consoleAgent(t.gw).post('/api/console/login', JSON.stringify({ name: 'ada', password: PASSWORD }), { 'content-type': 'text/plain' });
    assertError(plain, 415, 'json_required');
    assertError(await consoleAgent(t.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, { origin: '' }), 403, 'cross_site_request');
    const script = await consoleAgent(t.gw).post('/api/console/login', { name: 'ada', password: PASSWORD }, { origin: '', 'x-model-gateway-console': '1' });
    assert.equal(script.status, 200, `no Origin but the console header: ${script.text}`);

    const browser = consoleAgent(t.gw);
    await browser.signIn('ada');
    assertError(await browser.post('/api/console/logout', undefined, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    assert.equal((await browser.get('/api/console/session')).json.user?.name, 'ada', 'a cross-site sign-out did nothing');
  });

  it('bad bodies are the contract JSON errors, never echoing the password', async () => {
    const browser = consoleAgent(t.gw);
    assertError(await browser.post('/api/console/login', '{"name":'), 400, 'invalid_json');
    const extra = await browser.post('/api/console/login', { name: 'ada', password: 'secret-in-body-123', admin: true });
    assertError(extra, 400, 'invalid_request');
    assertError(await browser.post('/api/console/login', { name: 'ada', password: 'x'.repeat(2000) }), 400, 'invalid_request');
    assertError(await browser.post('/api/console/login', { name: 42, password: PASSWORD }), 400, 'invalid_request');
    assert.ok(!extra.text.includes('secret-in-body-123'));
  });
});
