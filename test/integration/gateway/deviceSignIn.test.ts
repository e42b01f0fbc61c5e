// Device sign-in over real HTTP (issue 14, RFC 8628, contract 4.11): the device asks, a signed-in user
// approves at /device's JSON, the device collects a new key of the approver's account once. Expiry
// and slow_down on the gateway's test clock; denial; a code answered by one user is not answerable by
// another, and the key goes only to the device holding the device code; the console's CSRF rules;
// wrong codes throttled; the bound on waiting requests; no device code or key in any log row.
import assert from 'node:assert/strict';
import { DEVICE_GRANT_TYPE } from '../../../src/contract/index.ts';
import { assertError, type Answer } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, consoleAgent, makeUser, PASSWORD, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';
import { answerOf } from '../../support/answer.ts';

/** A device's form-encoded POST (RFC 6749's encoding), as an OAuth client sends it. */
async function form(t: Started, path: string, params: Record<string, string>): Promise<Answer> {
  const res = await fetch(t.gw.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
  return answerOf(res.status, res.headers, await res.text());
}

function assertOAuthError(answer: Answer, status: number, error: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.json.error, error, answer.text);
  assert.match(answer.json.error_description, /\(request id: \S+\)$/);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

describe('device sign-in (RFC 8628) over HTTP', function () {
  this.timeout(30_000);
  let t: Started;
  let now = Date.now();
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  const secrets: string[] = [];
  const deviceCodes: string[] = [];
  before(async () => {
    t = await startTestGateway({ clock: () => now });
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
  });
  after(async () => t.close());

  async function ask(clientName = 'VS Code on lab-pc') {
    const answer = await form(t, '/api/oauth/device_authorization', { client_id: 'model-gateway-vscode', client_name: clientName });
    assert.equal(answer.status, 200, answer.text);
    deviceCodes.push(answer.json.device_code);
    return answer.json as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };
  }
  const collect = (deviceCode: string) => form(t, '/api/oauth/token', { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode });
  const later = (seconds: number) => {
    now += seconds * 1000;
  };

  it('GET /api/status advertises both endpoints under their RFC 8414 names', async () => {
    const status = await call(t.gw, 'GET', '/api/status');
    assert.equal(status.json.data.device_authorization_endpoint, `${t.gw.url}/api/oauth/device_authorization`);
    assert.equal(status.json.data.token_endpoint, `${t.gw.url}/api/oauth/token`);
  });

  it("answers a device code and a user code; once ada approves (narrowed to echo), the device collects a key of ada's account, once", async () => {
    const asked = await ask();
    assert.match(asked.device_code, /^[A-Za-z0-9_-]{43}$/);
    assert.match(asked.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(asked.verification_uri, `${t.gw.url}/device`);
    assert.equal(asked.verification_uri_complete, `${t.gw.url}/device?user_code=${asked.user_code}`);
    assert.deepEqual([asked.expires_in, asked.interval], [600, 5]);

    assertOAuthError(await collect(asked.device_code), 400, 'authorization_pending');
    // Typed in lower case without the dash: the same code.
    const looked = await ada.post('/api/console/device/lookup', { user_code: asked.user_code.toLowerCase().replace('-', '') });
    assert.equal(looked.status, 200, looked.text);
    assert.equal(looked.json.client_name, 'VS Code on lab-pc');
    assert.equal(looked.json.account, 'ada');
    assert.ok(looked.json.models.includes('echo') && looked.json.models.includes('echo-completion'), looked.text);
    assert.ok(!looked.text.includes(asked.device_code));

    // No models is not every model: refused, the request still waiting.
    assertError(await ada.post('/api/console/device/approve', { user_code: asked.user_code, models: [] }), 400, 'invalid_request');
    const approved = await ada.post('/api/console/device/approve', { user_code: asked.user_code, models: ['echo'] });
    assert.equal(approved.status, 200, approved.text);
    // Bob cannot answer it any more, either way: the code is not waiting.
    assertError(await bob.post('/api/console/device/approve', { user_code: asked.user_code }), 404, 'user_code_invalid');
    assertError(await bob.post('/api/console/device/deny', { user_code: asked.user_code }), 404, 'user_code_invalid');

    later(5);
    const got = await collect(asked.device_code);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.headers.get('cache-control'), 'no-store');
    assert.match(got.json.access_token, /^sk-[A-Za-z0-9_-]{43}$/);
    assert.deepEqual([got.json.token_type, got.json.key_name], ['Bearer', 'VS-Code-on-lab-pc']);
    secrets.push(got.json.access_token);

    // Once: the same device code collects nothing more.
    assertOAuthError(await collect(asked.device_code), 400, 'invalid_grant');

    const chat = await call(t.gw, 'POST', '/v1/chat/completions', { key: got.json.access_token, body: chatBody('echo', 'from the device') });
    assert.equal(chat.status, 200, chat.text);
    assertError(await call(t.gw, 'POST', '/v1/completions', { key: got.json.access_token, body: { model: 'echo-completion', prompt: 'x' } }), 403, 'model_not_permitted');
    await poll("the charge on ada's account", async () => ((await t.admin().getAccount('ada'))!.balance < 5_000_000 ? true : undefined));
    assert.equal((await t.admin().getAccount('bob'))!.balance, 5_000_000);

    const adaKeys = (await ada.get('/api/console/keys')).json.data;
    assert.deepEqual(adaKeys.map((k: { name: string; models: string[] }) => [k.name, k.models]), [['VS-Code-on-lab-pc', ['echo']]]);
    const store = t.admin();
    assert.equal((await store.listKeys()).find((k) => k.id === adaKeys[0].id)!.userId, (await store.findUser({ name: 'ada' }))!.id, 'the key remembers its approver');
    assert.deepEqual((await bob.get('/api/console/keys')).json.data, []);
  });

  it("gives the key only to the device that holds the approved code: another device's request stays pending", async () => {
    const mine = await ask('VS Code on ada-laptop');
    const other = await ask('VS Code on somewhere-else');
    assert.equal((await ada.post('/api/console/device/approve', { user_code: mine.user_code })).status, 200);
    later(5);
    assertOAuthError(await collect(other.device_code), 400, 'authorization_pending');
    const got = await collect(mine.device_code);
    assert.equal(got.status, 200, got.text);
    secrets.push(got.json.access_token);
    assert.equal(got.json.key_name, 'VS-Code-on-ada-laptop');
    // A second approval of the same machine name gets the next free name.
    assert.equal((await bob.post('/api/console/device/approve', { user_code: other.user_code })).status, 200);
    later(5);
    const bobs = await collect(other.device_code);
    assert.equal(bobs.status, 200, bobs.text);
    secrets.push(bobs.json.access_token);
    assert.deepEqual((await bob.get('/api/console/keys')).json.data.map((k: { name: string; models: unknown }) => [k.name, k.models]), [['VS-Code-on-somewhere-else', null]]);
    assert.ok(!(await ada.get('/api/console/keys')).json.data.some((k: { name: string }) => k.name === 'VS-Code-on-somewhere-else'));
  });

  it('slow_down when polled sooner than the interval; the interval grows by 5 s for good', async () => {
    const asked = await ask();
    assertOAuthError(await collect(asked.device_code), 400, 'authorization_pending');
    later(1);
    const slow = await collect(asked.device_code);
    assertOAuthError(slow, 400, 'slow_down');
    assert.match(slow.json.error_description, /every 10 s/);
    later(5);
    assertOAuthError(await collect(asked.device_code), 400, 'slow_down');
    later(15);
    assertOAuthError(await collect(asked.device_code), 400, 'authorization_pending');
    assert.equal((await bob.post('/api/console/device/deny', { user_code: asked.user_code })).status, 200);
  });

  it('denial: access_denied once, then the code is gone (no approval after it)', async () => {
    const asked = await ask();
    const denied = await bob.post('/api/console/device/deny', { user_code: asked.user_code });
    assert.deepEqual([denied.status, denied.json.approved], [200, false]);
    assertError(await ada.post('/api/console/device/approve', { user_code: asked.user_code }), 404, 'user_code_invalid');
    later(5);
    assertOAuthError(await collect(asked.device_code), 400, 'access_denied');
    assertOAuthError(await collect(asked.device_code), 400, 'invalid_grant');
  });

  it('expiry: after ten minutes expired_token, and the code can no longer be looked up or approved', async () => {
    const asked = await ask();
    later(600);
    assertError(await ada.post('/api/console/device/lookup', { user_code: asked.user_code }), 404, 'user_code_invalid');
    assertError(await ada.post('/api/console/device/approve', { user_code: asked.user_code }), 404, 'user_code_invalid');
    assertOAuthError(await collect(asked.device_code), 400, 'expired_token');
  });

  it('an approver disabled before the device collects gives no key: access_denied', async () => {
    await makeUser(t.admin(), 'cy', 1_000_000);
    const cy = consoleAgent(t.gw);
    assert.equal((await cy.signIn('cy')).status, 200);
    const asked = await ask('VS Code on cy-pc');
    assert.equal((await cy.post('/api/console/device/approve', { user_code: asked.user_code })).status, 200);
    await t.admin().setUserStatus('cy', 'disabled');
    later(5);
    assertOAuthError(await collect(asked.device_code), 400, 'access_denied');
    assert.ok(!(await t.admin().listKeys()).some((k) => k.name === 'VS-Code-on-cy-pc'));
  });

  it('refuses what is not the device grant: wrong grant type, no device code, a device code never issued', async () => {
    assertOAuthError(await form(t, '/api/oauth/token', { grant_type: 'client_credentials', device_code: 'x' }), 400, 'unsupported_grant_type');
    assertOAuthError(await form(t, '/api/oauth/token', { grant_type: DEVICE_GRANT_TYPE }), 400, 'invalid_request');
    assertOAuthError(await form(t, '/api/oauth/token', { grant_type: DEVICE_GRANT_TYPE, device_code: 'never-issued' }), 400, 'invalid_grant');
    assertOAuthError(await form(t, '/api/oauth/device_authorization', {}), 400, 'invalid_request');
    const twice = await fetch(`${t.gw.url}/api/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=a&grant_type=b` });
    assertOAuthError(answerOf(twice.status, twice.headers, await twice.text()), 400, 'invalid_request');
    const huge = await form(t, '/api/oauth/device_authorization', { client_id: 'x', client_name: 'n'.repeat(20_000) });
    assertOAuthError(huge, 413, 'invalid_request');
  });

  it("the approval JSON keeps the console's rules: a session (401), same origin (403), JSON only (415)", async () => {
    const asked = await ask();
    assertError(await consoleAgent(t.gw).post('/api/console/device/approve', { user_code: asked.user_code }), 401, 'not_signed_in');
    assertError(await ada.post('/api/console/device/approve', { user_code: asked.user_code }, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    assertError(await ada.post('/api/console/device/approve', `user_code=${asked.user_code}`, { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'json_required');
    assertError(await ada.post('/api/console/device/approve', { user_code: asked.user_code, models: ['no-such-model'] }), 400, 'invalid_request');
    // None of those answered it.
    assert.equal((await ada.post('/api/console/device/deny', { user_code: asked.user_code })).status, 200);
  });

  it('throttles wrong user codes per user: after 5, 429 user_code_throttled with Retry-After, even for a right one', async () => {
    await makeUser(t.admin(), 'eve', 0);
    const eve = consoleAgent(t.gw);
    assert.equal((await eve.signIn('eve')).status, 200);
    const asked = await ask();
    for (let i = 0; i < 5; i++) assertError(await eve.post('/api/console/device/lookup', { user_code: 'BBBB-BBBB' }), 404, 'user_code_invalid');
    const throttled = await eve.post('/api/console/device/lookup', { user_code: asked.user_code });
    assertError(throttled, 429, 'user_code_throttled');
    assert.match(throttled.headers.get('retry-after') ?? '', /^\d+$/);
    later(16);
    assert.equal((await eve.post('/api/console/device/lookup', { user_code: asked.user_code })).status, 200);
    assert.equal((await eve.post('/api/console/device/deny', { user_code: asked.user_code })).status, 200);
  });

  it('no device code, key or password in any request log row', async () => {
    const logs = await poll('the token rows in the log', async () => {
      const rows = JSON.stringify(await t.admin().listLogs(10_000));
      return rows.includes('/api/oauth/token') && rows.includes('/api/console/device/approve') ? rows : undefined;
    });
    for (const secret of [...secrets, ...deviceCodes, PASSWORD, ada.cookie!]) assert.ok(!logs.includes(secret), 'a secret in the logs');
  });
});

describe('device sign-in: a flood of requests', function () {
  this.timeout(30_000);
  let t: Started;
  before(async () => {
    t = await startTestGateway();
  });
  after(async () => t.close());

  it('holds at most 10 waiting requests per address: the 11th is 429 temporarily_unavailable with Retry-After', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await form(t, '/api/oauth/device_authorization', { client_id: 'flood' })).status, 200);
    const refused = await form(t, '/api/oauth/device_authorization', { client_id: 'flood' });
    assertOAuthError(refused, 429, 'temporarily_unavailable');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
  });
});
