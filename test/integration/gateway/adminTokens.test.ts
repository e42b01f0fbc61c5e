// Admin access tokens as a script uses them (issue 10), against `model-gateway serve` in a process of its
// own on a real SQLite folder, over real HTTP: an admin signed in to the console makes a token; then the
// token alone (no cookie, no Origin, no console header) lists users, creates one and tops up an account,
// each answer of the shape the contract's schemas (and so the OpenAPI document) give; the audit log
// names the admin and the token. A revoked or expired token, or one whose admin was demoted, is refused
// with its code; a user who is not an admin cannot make tokens; an API key is refused on the admin
// routes and a token on /v1. No token is ever in the gateway's output, its request logs, or the bytes of
// its database files: only its hash is.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { API_ROUTES, type ApiRouteId } from '../../../src/contract/index.ts';
import { createKey } from '../../../src/gateway/admin.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { answerOf, type Answer } from '../../support/answer.ts';
import { assertRefusal } from '../../support/documented.ts';
import { consoleAgent, makeUser, type ConsoleAgent } from './consoleAgent.ts';
import { chatBody, tempDir } from './helpers.ts';
import { ROOT, serveProcess, type Served } from './serveProcess.ts';

const TOKEN = /^mgt-[A-Za-z0-9_-]{43}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('admin access tokens: a script manages the gateway with a token alone', function () {
  this.timeout(60_000);
  let dir: string;
  let served: Served;
  let store: Store;
  let root: ConsoleAgent;
  let apiKey: string;
  const tokens: string[] = [];

  /** A script's request: the token as Bearer, a JSON body when given, nothing else. */
  async function script(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(served.gw.url + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return answerOf(res.status, res.headers, await res.text());
  }
  /** The answer is 2xx with the body the route's row (and the OpenAPI document) gives. */
  function shaped(answer: Answer, id: ApiRouteId): any {
    const route = API_ROUTES[id];
    assert.equal(answer.status, route.response.status, answer.text);
    return route.response.schema.parse(answer.json);
  }
  async function makeToken(agent: ConsoleAgent, name: string, expiresAt?: string): Promise<string> {
    const made = shaped(await agent.post('/api/console/admin/tokens', { name, ...(expiresAt ? { expires_at: expiresAt } : {}) }), 'createAdminToken');
    assert.match(made.token, TOKEN);
    assert.equal(made.admin_token.prefix, `${made.token.slice(0, 8)}…`);
    assert.equal(made.admin_token.status, 'active');
    tokens.push(made.token);
    return made.token;
  }

  before(async () => {
    execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT });
    dir = tempDir();
    const env: NodeJS.ProcessEnv = { ...process.env, MODEL_GATEWAY_DATA: dir, MODEL_GATEWAY_ECHO_DELAY_MS: '0' };
    delete env['MODEL_GATEWAY_DATABASE_URL'];
    served = await serveProcess([], env);
    store = openStore({ dataDir: dir });
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'bob', 1_000_000);
    apiKey = (await createKey(store, { account: 'bob', name: 'bobs-key' })).secret;
    root = consoleAgent(served.gw);
    assert.equal((await root.signIn('root')).status, 200);
  });
  after(async () => {
    served?.child.kill('SIGKILL');
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists users, creates a user and tops up an account with only the token; the audit log names the admin and the token', async () => {
    const token = await makeToken(root, 'nightly');
    const users = shaped(await script(token, 'GET', '/api/console/admin/users'), 'listUsers');
    assert.deepEqual(users.data.map((u: { name: string }) => u.name), ['root', 'bob']);
    const made = shaped(await script(token, 'POST', '/api/console/admin/users', { name: 'ada', password: 'ada password 123' }), 'createUser');
    assert.deepEqual([made.user.name, made.user.account, made.user.admin], ['ada', 'ada', false]);
    const topped = shaped(await script(token, 'POST', '/api/console/admin/accounts/topup', { account: 'ada', amount_usd: '12.5' }), 'topUpAccount');
    assert.deepEqual([topped.account.name, topped.account.balance.micro_usd, topped.amount.usd], ['ada', 12_500_000, '12.50']);

    // The changes are real: ada signs in and sees her money.
    const ada = consoleAgent(served.gw);
    assert.equal((await ada.signIn('ada', 'ada password 123')).status, 200);
    assert.equal(shaped(await ada.get('/api/console/account'), 'getAccount').account.balance.remaining.micro_usd, 12_500_000);

    const audit = shaped(await script(token, 'GET', '/api/console/admin/audit'), 'listAudit');
    assert.deepEqual(audit.data.slice(0, 3).map((r: { actor: string; action: string; target: string; via_token: string | null }) => [r.actor, r.action, r.target, r.via_token]), [
      ['root', 'account.topup', 'ada', 'nightly'], ['root', 'user.create', 'ada', 'nightly'], ['root', 'token.create', 'nightly', null],
    ]);
    const listed = shaped(await root.get('/api/console/admin/tokens'), 'listAdminTokens');
    assert.deepEqual(listed.data.map((t: { name: string; created_by: string; status: string }) => [t.name, t.created_by, t.status]), [['nightly', 'root', 'active']]);
    assert.ok(listed.data[0].last_used_at, 'its use is recorded');
  });

  it('needs no CSRF proof, but refuses to make tokens with a token, and refuses a token it does not know', async () => {
    const token = tokens[0]!;
    assertRefusal(await script(token, 'POST', '/api/console/admin/tokens', { name: 'child' }), 'POST', '/api/console/admin/tokens', 401, 'admin_token_not_accepted');
    assertRefusal(await script(`mgt-${'x'.repeat(43)}`, 'GET', '/api/console/admin/users'), 'GET', '/api/console/admin/users', 401, 'invalid_admin_token');
    // A token with a session cookie of another user beside it is still judged by the token alone.
    const bob = consoleAgent(served.gw);
    assert.equal((await bob.signIn('bob')).status, 200);
    assert.equal((await bob.get('/api/console/admin/users', { authorization: `Bearer ${token}` })).status, 200);
  });

  it('a revoked token is refused at once: 403 admin_token_revoked', async () => {
    const token = tokens[0]!;
    const id = shaped(await root.get('/api/console/admin/tokens'), 'listAdminTokens').data.find((t: { name: string }) => t.name === 'nightly').id;
    const revoked = shaped(await root.post('/api/console/admin/tokens/revoke', { id }), 'revokeAdminToken');
    assert.equal(revoked.admin_token.status, 'revoked');
    assertRefusal(await script(token, 'GET', '/api/console/admin/users'), 'GET', '/api/console/admin/users', 403, 'admin_token_revoked');
    assertRefusal(await script(token, 'POST', '/api/console/admin/accounts/topup', { account: 'ada', amount_usd: 1 }), 'POST', '/api/console/admin/accounts/topup', 403, 'admin_token_revoked');
    const audit = shaped(await root.get('/api/console/admin/audit?action=token.revoke'), 'listAudit');
    assert.deepEqual(audit.data.map((r: { actor: string; target: string }) => [r.actor, r.target]), [['root', 'nightly']]);
  });

  it('an expired token is refused: 403 admin_token_expired', async () => {
    const token = await makeToken(root, 'short', new Date(Date.now() + 1500).toISOString());
    assert.equal((await script(token, 'GET', '/api/console/admin/audit')).status, 200);
    await sleep(1700);
    assertRefusal(await script(token, 'GET', '/api/console/admin/audit'), 'GET', '/api/console/admin/audit', 403, 'admin_token_expired');
    assert.equal(shaped(await root.get('/api/console/admin/tokens'), 'listAdminTokens').data.find((t: { name: string }) => t.name === 'short').status, 'expired');
  });

  it('a token whose admin is no longer an enabled admin is refused: 403 admin_required, and works again once they are', async () => {
    shaped(await root.post('/api/console/admin/users', { name: 'op', password: 'op password 123', admin: true }), 'createUser');
    const op = consoleAgent(served.gw);
    assert.equal((await op.signIn('op', 'op password 123')).status, 200);
    const token = await makeToken(op, 'ops');
    assert.equal((await script(token, 'GET', '/api/console/admin/users')).status, 200);
    shaped(await root.post('/api/console/admin/users/admin', { name: 'op', admin: false }), 'setUserAdmin');
    const refused = await script(token, 'GET', '/api/console/admin/users');
    assertRefusal(refused, 'GET', '/api/console/admin/users', 403, 'admin_required');
    assert.match(refused.json.error.message, /"op", who is no longer an enabled admin/);
    shaped(await root.post('/api/console/admin/users/admin', { name: 'op', admin: true }), 'setUserAdmin');
    assert.equal((await script(token, 'GET', '/api/console/admin/users')).status, 200);
    shaped(await root.post('/api/console/admin/users/disable', { name: 'op' }), 'disableUser');
    assertRefusal(await script(token, 'GET', '/api/console/admin/users'), 'GET', '/api/console/admin/users', 403, 'admin_required');
  });

  it('a user who is not an admin cannot make or list tokens: 403 admin_required', async () => {
    const bob = consoleAgent(served.gw);
    assert.equal((await bob.signIn('bob')).status, 200);
    assertRefusal(await bob.post('/api/console/admin/tokens', { name: 'mine' }), 'POST', '/api/console/admin/tokens', 403, 'admin_required');
    assertRefusal(await bob.get('/api/console/admin/tokens'), 'GET', '/api/console/admin/tokens', 403, 'admin_required');
    assert.ok(!shaped(await root.get('/api/console/admin/tokens'), 'listAdminTokens').data.some((t: { name: string }) => t.name === 'mine'));
  });

  it('an API key is refused on the admin routes, and a token on the model endpoints', async () => {
    assertRefusal(await script(apiKey, 'GET', '/api/console/admin/users'), 'GET', '/api/console/admin/users', 401, 'api_key_not_accepted');
    assertRefusal(await script(apiKey, 'POST', '/api/console/admin/accounts/topup', { account: 'bob', amount_usd: 5 }), 'POST', '/api/console/admin/accounts/topup', 401, 'api_key_not_accepted');
    const token = await makeToken(root, 'not-a-key');
    const chat = await script(token, 'POST', '/v1/chat/completions', chatBody('echo', 'may I?'));
    assertRefusal(chat, 'POST', '/v1/chat/completions', 401, 'admin_token_not_accepted');
    assertRefusal(await script(token, 'GET', '/v1/models'), 'GET', '/v1/models', 401, 'admin_token_not_accepted');
    assert.equal((await store.getAccount('bob'))!.balance, 1_000_000, 'nothing was charged or credited');
  });

  it('never holds a token in plain text: not in the output, the request logs or the database files; only its hash', async () => {
    assert.ok(tokens.length >= 4);
    const logs = JSON.stringify(await store.listLogs(1000));
    assert.ok(logs.includes('admin_token_revoked') && logs.includes('/api/console/admin/users'), 'the refusals are in the request logs');
    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0, served.output());
    const files = ['gateway.db', 'gateway.db-wal', 'gateway.db-shm'].map((f) => join(dir, f)).filter((f) => existsSync(f));
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    for (const token of tokens) {
      for (const [where, text] of [['the gateway output', served.output()], ['the request logs', logs], ['the database files', bytes.toString('latin1')]] as const) {
        assert.ok(!text.includes(token), `a token in ${where}`);
        assert.ok(!text.includes(token.slice(4)), `a token's random part in ${where}`);
      }
      assert.ok(bytes.includes(createHash('sha256').update(token).digest('hex')), 'its hash is there: the right bytes were read');
    }
  });
});
