// The first-admin setup link (issue 10): made only when the gateway starts with no admin, its token
// only in the URL's #fragment, accepted once, within the hour, and never once an admin exists.
import assert from 'node:assert/strict';
import { SETUP_LINK_MS } from '../../../src/gateway/accounts/setupLink.ts';
import { HASHES_AT_ONCE, HASHES_WAITING, hashPassword, verifyPassword } from '../../../src/gateway/accounts/passwords.ts';
import { assertError } from '../../support/answer.ts';
import { consoleAgent, makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

function tokenOf(t: Started): string {
  const url = new URL(t.gw.setupUrl!);
  assert.equal(`${url.protocol}//${url.host}`, t.gw.url, 'the link is the local address');
  assert.equal(url.pathname, '/');
  assert.equal(url.search, '', 'nothing in the query: servers log those');
  const match = /^#setup=([A-Za-z0-9_-]{43})$/.exec(url.hash);
  assert.ok(match, url.hash);
  return match[1]!;
}

describe('console first-admin setup link', function () {
  this.timeout(30_000);
  let t: Started;
  let now: number;
  beforeEach(async () => {
    now = Date.now();
    t = await startTestGateway({ firstAdminSetup: true, clock: () => now });
  });
  afterEach(async () => t.close());

  it('creates the first admin once, signed in at once; the link is dead afterwards', async () => {
    const token = tokenOf(t);
    const browser = consoleAgent(t.gw);
    assertError(await browser.post('/api/console/setup', { token: token.slice(1) + 'x', name: 'root', password: PASSWORD }), 403, 'setup_link_invalid');
    // A refused password does not spend the link.
    assertError(await browser.post('/api/console/setup', { token, name: 'root', password: 'short' }), 400, 'password_too_short');
    assertError(await browser.post('/api/console/setup', { token, name: 'cli', password: PASSWORD }), 400, 'invalid_request');
    assertError(await browser.post('/api/console/setup', { token, name: 'CLI', password: PASSWORD }), 400, 'invalid_request');

    const made = await browser.post('/api/console/setup', { token, name: 'root', password: PASSWORD });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.json.user, { name: 'root', admin: true, account: 'root' });
    assert.equal((await browser.get('/api/console/session')).json.user.name, 'root');
    const users = await t.admin().listUsers();
    assert.deepEqual(users.map((u) => [u.name, u.admin]), [['root', true]]);
    assert.ok(!users[0]!.passwordHash.includes(PASSWORD));

    assertError(await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root2', password: PASSWORD }), 403, 'setup_link_invalid');
    assert.equal((await t.admin().listUsers()).length, 1);
  });

  it('writes the audit row the CLI\'s `user create --admin` writes, with the new admin as its actor', async () => {
    // Before: the first admin, made through the link, left no row at all.
    const browser = consoleAgent(t.gw);
    assert.equal((await browser.post('/api/console/setup', { token: tokenOf(t), name: 'root', password: PASSWORD })).status, 201);
    const rows = (await browser.get('/api/console/admin/audit')).json.data as Array<{ actor: string; action: string; target: string; details: unknown }>;
    assert.deepEqual(rows.map((r) => [r.actor, r.action, r.target, r.details]), [['root', 'user.create', 'root', { account: 'root', admin: true, new_account: true }]]);
  });

  it('a setup refused because too many passwords are being checked (503) leaves the link usable', async () => {
    const token = tokenOf(t);
    // The gateway runs in this process: fill its password line as a flood of sign-ins would.
    const stored = await hashPassword('some other password');
    const flood = Array.from({ length: HASHES_AT_ONCE + HASHES_WAITING }, () => verifyPassword('a guess at it', stored));
    const busy = await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD });
    assertError(busy, 503, 'password_checks_busy');
    assert.equal(busy.headers.get('retry-after'), '1');
    await Promise.all(flood);
    const made = await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD });
    assert.equal(made.status, 201, made.text);
  });

  it('expires after an hour', async () => {
    const token = tokenOf(t);
    now += SETUP_LINK_MS;
    assertError(await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD }), 403, 'setup_link_invalid');
    assert.deepEqual(await t.admin().listUsers(), []);
  });

  it('is refused once an admin exists (made with the CLI meanwhile), and not made at all when one did at start', async () => {
    const token = tokenOf(t);
    await makeUser(t.admin(), 'cli-admin', 0, true);
    assertError(await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD }), 403, 'setup_link_invalid');

    const again = await startTestGateway({ firstAdminSetup: true });
    try {
      assert.ok(again.gw.setupUrl, 'an empty store gets a link');
      await makeUser(again.admin(), 'boss', 0, true);
      await again.gw.stop();
      const { startGateway } = await import('../../../src/gateway/server.ts');
      const restarted = await startGateway({ dataDir: again.dir, port: 0, firstAdminSetup: true });
      await restarted.stop();
      assert.equal(restarted.setupUrl, undefined, 'no link once an admin exists');
    } finally {
      await again.close();
    }
  });

  it('is refused from another site, and absent when the gateway was not asked for one', async () => {
    const token = tokenOf(t);
    assertError(await consoleAgent(t.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD }, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    const plain = await startTestGateway();
    try {
      assert.equal(plain.gw.setupUrl, undefined);
      assertError(await consoleAgent(plain.gw).post('/api/console/setup', { token, name: 'root', password: PASSWORD }), 403, 'setup_link_invalid');
    } finally {
      await plain.close();
    }
  });
});
