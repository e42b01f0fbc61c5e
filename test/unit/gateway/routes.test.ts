// The route table, swept in process (no socket): every route answers its methods with the contract's
// shapes, refuses the others with 405, and asks for a key unless it is public. The console's signed-in
// routes are swept again with a session: every admin route refuses a user who is not an admin (403),
// and every change refuses a request without the console's same-origin proof (403) or a JSON body (415).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ROUTES } from '../../../src/gateway/app.ts';
import { createUser } from '../../../src/gateway/accounts/users.ts';
import { createGateway, type GatewayInstance } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { tempDir } from '../../integration/gateway/helpers.ts';
import { assertAnthropicError, assertError } from '../../support/answer.ts';
import { injectRequest } from '../../support/inject.ts';

/** Routes anyone may read: the status probe, the console's pages (their data needs a key or a session) and who is signed in (nobody: user null). */
const PUBLIC = new Set(['/api/status', '/', '/console', '/api/console/session', '/device']);
/** The device sign-in's OAuth endpoints (contract 4.11) need nothing but their parameters, and refuse in RFC 6749's body. */
const OAUTH = new Set(['/api/oauth/device_authorization', '/api/oauth/token']);
/** The console's sign-in routes need no key and no session, but a same-origin proof (CSRF): without one, 403. */
const SIGN_IN = new Set(['/api/console/login', '/api/console/logout', '/api/console/setup']);
/** The console's signed-in routes ask for a session cookie, not a key. */
const signedIn = (path: string) =>
  path.startsWith('/api/console/keys') || path.startsWith('/api/console/admin/') || path.startsWith('/api/console/device/') || path === '/api/console/models' || path.startsWith('/api/console/account/') || path === '/api/console/password';

function expectedWithoutCredentials(path: string): [number, string] | 'ok' | 'oauth' {
  if (PUBLIC.has(path)) return 'ok';
  if (OAUTH.has(path)) return 'oauth';
  if (SIGN_IN.has(path)) return [403, 'cross_site_request'];
  if (signedIn(path)) return [401, 'not_signed_in'];
  return [401, 'missing_api_key'];
}

describe('the route table, in process', () => {
  let gateway: GatewayInstance;
  before(async () => {
    gateway = await createGateway({ inMemory: true, bootstrap: true, echoDelayMs: 0 });
  });
  after(async () => {
    await gateway.drain(0);
    await gateway.close();
  });

  for (const [path, methods] of Object.entries(ROUTES)) {
    // The Messages API answers errors in Anthropic's shape, with the same statuses and codes.
    const assertErrorOf = path.startsWith('/v1/messages') ? assertAnthropicError : assertError;
    for (const method of Object.keys(methods)) {
      const expected = expectedWithoutCredentials(path);
      const title = expected === 'ok' ? '200' : expected === 'oauth' ? "400 invalid_request in RFC 6749's body" : expected.join(' ');
      it(`${method} ${path} without a key: ${title}`, async () => {
        const answer = await injectRequest(gateway, method, path, method === 'POST' ? { body: { model: 'echo', messages: [{ role: 'user', content: 'hi' }] } } : {});
        if (expected === 'ok') assert.equal(answer.status, 200);
        else if (expected === 'oauth') {
          assert.equal(answer.status, 400);
          assert.equal(answer.json.error, 'invalid_request');
          assert.match(answer.json.error_description, /\(request id: \S+\)$/);
        } else assertErrorOf(answer, ...expected);
        assert.match(answer.headers.get('x-request-id') ?? '', /\S/);
      });
    }
    it(`${path} with a method it does not have: 405 and Allow`, async () => {
      const answer = await injectRequest(gateway, 'PATCH', path);
      assertErrorOf(answer, 405, 'method_not_allowed');
      const allow = answer.headers.get('allow')!.split(', ');
      for (const method of Object.keys(methods)) assert.ok(allow.includes(method), `${method} in Allow: ${allow}`);
    });
  }

  it('serves a keyed chat in process, charged like any other', async () => {
    const answer = await injectRequest(gateway, 'POST', '/v1/chat/completions', { key: gateway.bootstrapKey!, body: { model: 'echo', messages: [{ role: 'user', content: 'in process' }] } });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.choices[0].message.content, 'You said: in process');
    const billing = await injectRequest(gateway, 'GET', '/v1/dashboard/billing/usage', { key: gateway.bootstrapKey! });
    assert.equal(billing.status, 200);
    assert.ok(billing.json.total_usage > 0, `usage after a paid chat: ${billing.text}`);
  });
});

/** The console routes for admins only (redemption codes; the users page's when it lands). */
const isAdminRoute = (path: string) => path.startsWith('/api/console/admin/');

describe('the signed-in console routes, in process, with a session', () => {
  const PASSWORD = 'a long enough password';
  let gateway: GatewayInstance;
  let dir: string;
  const cookies: Record<'admin' | 'user', string> = { admin: '', user: '' };
  before(async () => {
    dir = tempDir();
    gateway = await createGateway({ dataDir: dir, bootstrap: true, echoDelayMs: 0 });
    const store = openStore({ dataDir: dir });
    await createUser(store, { name: 'root', password: PASSWORD, admin: true });
    await createUser(store, { name: 'plain', password: PASSWORD, admin: false });
    await store.close();
    for (const [who, name] of [['admin', 'root'], ['user', 'plain']] as const) {
      const answer = await injectRequest(gateway, 'POST', '/api/console/login', { body: { name, password: PASSWORD }, headers: { 'x-model-gateway-console': '1' } });
      assert.equal(answer.status, 200, answer.text);
      cookies[who] = /^mg_session=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')![0];
    }
  });
  after(async () => {
    await gateway.drain(0);
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const adminRoutes = Object.entries(ROUTES).filter(([path]) => isAdminRoute(path));
  it('finds the admin routes', () => assert.ok(adminRoutes.length >= 2, adminRoutes.map(([p]) => p).join(', ')));

  for (const [path, methods] of adminRoutes) {
    for (const method of Object.keys(methods)) {
      it(`${method} ${path} as a signed-in user who is not an admin: 403 admin_required, whatever the body`, async () => {
        const answer = await injectRequest(gateway, method, path, {
          headers: { cookie: cookies.user, 'x-model-gateway-console': '1' }, ...(method === 'POST' ? { body: { id: 1 } } : {}),
        });
        assertError(answer, 403, 'admin_required');
      });
    }
  }

  for (const [path, methods] of Object.entries(ROUTES).filter(([p]) => signedIn(p))) {
    if (!('POST' in methods)) continue;
    const cookie = () => (isAdminRoute(path) ? cookies.admin : cookies.user);
    it(`POST ${path} signed in, without the console's same-origin proof: 403 cross_site_request; from another origin too`, async () => {
      assertError(await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie() }, body: { id: 1 } }), 403, 'cross_site_request');
      assertError(await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie(), origin: 'https://evil.example' }, body: { id: 1 } }), 403, 'cross_site_request');
    });
    it(`POST ${path} signed in, a body that is not JSON (a form's): 415 json_required`, async () => {
      const answer = await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie(), 'x-model-gateway-console': '1', 'content-type': 'text/plain' }, body: 'id=1' });
      assertError(answer, 415, 'json_required');
    });
  }

  it('GET /api/console/admin/codes as an admin: 200, a list', async () => {
    const answer = await injectRequest(gateway, 'GET', '/api/console/admin/codes', { headers: { cookie: cookies.admin } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, { object: 'list', data: [], next_before: null });
  });
});
