// The route table, swept in process (no socket): every route answers its methods with the contract's
// shapes, refuses the others with 405, and asks for a key unless it is public. The console's signed-in
// routes are swept again with sessions: every admin route (users, top-ups, the audit log, redemption
// codes, channels, models and prices, admin access tokens) is 401 without a session, 403 admin_required for a
// user who is not an admin, and past both for an admin; every change refuses a request without the console's
// same-origin proof (403) or a JSON body (415). Every refusal of the management API seen here is one its row
// in the OpenAPI document lists (documentedCodes).
import assert from 'node:assert/strict';
import { ROUTES } from '../../../src/gateway/app.ts';
import { createGateway, type GatewayInstance } from '../../../src/gateway/server.ts';
import { assertAnthropicError, assertError } from '../../support/answer.ts';
import { injectRequest } from '../../support/inject.ts';
import { assertRefusal, documentedCodes, needsQuery } from '../../support/documented.ts';

/** Routes anyone may read: the status probe, the console's pages (their data needs a key or a session) and who is signed in (nobody: user null). */
const PUBLIC = new Set(['/api/status', '/api/openapi.json', '/', '/console', '/api/console/session', '/device']);
/** The device sign-in's OAuth endpoints (contract 4.11) need nothing but their parameters, and refuse in RFC 6749's body. */
const OAUTH = new Set(['/api/oauth/device_authorization', '/api/oauth/token']);
/** The console's sign-in routes need no key and no session, but a same-origin proof (CSRF): without one, 403. */
const SIGN_IN = new Set(['/api/console/login', '/api/console/logout', '/api/console/setup', '/api/console/signup']);
/** The admins' console: a session of an admin (contract 4.10). */
const ADMIN_PREFIX = '/api/console/admin/';
/** The console's signed-in routes ask for a session cookie, not a key. */
const signedIn = (path: string) =>
  path.startsWith('/api/console/keys') || path.startsWith('/api/console/device/') || path === '/api/console/models' || path === '/api/console/account' || path === '/api/console/dashboard'
  || path.startsWith('/api/console/account/') || path === '/api/console/password' || path.startsWith('/api/console/playground/') || path.startsWith(ADMIN_PREFIX);

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
        } else {
          assertErrorOf(answer, ...expected);
          const codes = documentedCodes(method, path);
          if (codes) assert.ok(codes.includes(expected[1]), `${expected[1]} is documented for ${method} ${path}`);
        }
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

// Every admin route of the table, whatever it does: no session 401, a signed-in user who is not an admin
// 403 admin_required (before the body is read), an admin past both (a GET answers, a POST reads its body);
// and every signed-in change of the table, the CSRF proofs.
describe('the signed-in console routes of the table, in process, with sessions', () => {
  let gateway: GatewayInstance;
  const adminRoutes = Object.entries(ROUTES).filter(([path]) => path.startsWith(ADMIN_PREFIX)).flatMap(([path, methods]) => Object.keys(methods).map((method) => [method, path] as const));
  /** The console page's own header (an in-process request has no Origin). */
  const fromPage = { 'x-model-gateway-console': '1' };
  const cookieOf = (answer: { headers: Headers }) => /^mg_session=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')![1]!;
  let admin: string;
  let user: string;

  before(async () => {
    gateway = await createGateway({ inMemory: true, bootstrap: true, echoDelayMs: 0, firstAdminSetup: true });
    const setup = await injectRequest(gateway, 'POST', '/api/console/setup', { headers: fromPage, body: { token: gateway.setupToken, name: 'root', password: 'root password 1' } });
    assert.equal(setup.status, 201, setup.text);
    admin = cookieOf(setup);
    const made = await injectRequest(gateway, 'POST', '/api/console/admin/users', { headers: { ...fromPage, cookie: `mg_session=${admin}` }, body: { name: 'ada', password: 'ada password 1' } });
    assert.equal(made.status, 201, made.text);
    const login = await injectRequest(gateway, 'POST', '/api/console/login', { headers: fromPage, body: { name: 'ada', password: 'ada password 1' } });
    assert.equal(login.status, 200, login.text);
    user = cookieOf(login);
  });
  after(async () => {
    await gateway.drain(0);
    await gateway.close();
  });

  it('finds the admin routes: users, their actions, top-ups, the audit log, redemption codes, channels, models and prices, admin access tokens', () => {
    assert.ok(adminRoutes.length >= 23, `${adminRoutes.length} admin routes`);
    const channels = ['', '/update', '/disable', '/enable', '/delete', '/test'].map((action) => `/api/console/admin/channels${action}`);
    for (const path of ['/api/console/admin/users', '/api/console/admin/audit', '/api/console/admin/codes', '/api/console/admin/codes/disable', ...channels, '/api/console/admin/models', '/api/console/admin/models/price', '/api/console/admin/tokens', '/api/console/admin/tokens/revoke']) {
      assert.ok(adminRoutes.some(([, p]) => p === path), path);
    }
  });

  for (const [method, path] of adminRoutes) {
    const body = method === 'POST' ? { name: 'ada', account: 'ada', amount_usd: '1', admin: false, password: 'new password 99' } : undefined;
    it(`${method} ${path}: 401 without a session, 403 admin_required for a user, past both for an admin`, async () => {
      assertRefusal(await injectRequest(gateway, method, path, { headers: fromPage, body }), method, path, 401, 'not_signed_in');
      assertRefusal(await injectRequest(gateway, method, path, { headers: { ...fromPage, cookie: `mg_session=${user}` }, body }), method, path, 403, 'admin_required');
      // A user's refused request changed nothing, and told nothing of the admin API's data.
      const asAdmin = await injectRequest(gateway, method, path, { headers: { ...fromPage, cookie: `mg_session=${admin}` }, body: method === 'POST' ? {} : undefined });
      // A GET whose query needs a parameter (a log's id) is past both when the parameter is what it refuses.
      if (method === 'GET' && !needsQuery(method, path)) assert.equal(asAdmin.status, 200, asAdmin.text);
      else assertRefusal(asAdmin, method, path, 400, 'invalid_request');
    });
  }

  for (const [path, methods] of Object.entries(ROUTES).filter(([p]) => signedIn(p))) {
    if (!('POST' in methods)) continue;
    const cookie = () => `mg_session=${path.startsWith(ADMIN_PREFIX) ? admin : user}`;
    it(`POST ${path} signed in, without the console's same-origin proof: 403 cross_site_request; from another origin too`, async () => {
      assertRefusal(await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie() }, body: { id: 1 } }), 'POST', path, 403, 'cross_site_request');
      assertRefusal(await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie(), origin: 'https://evil.example' }, body: { id: 1 } }), 'POST', path, 403, 'cross_site_request');
    });
    it(`POST ${path} signed in, a body that is not JSON (a form's): 415 json_required`, async () => {
      const answer = await injectRequest(gateway, 'POST', path, { headers: { cookie: cookie(), ...fromPage, 'content-type': 'text/plain' }, body: 'id=1' });
      assertRefusal(answer, 'POST', path, 415, 'json_required');
    });
  }

  it("leaves the user's session and password as they were after every refused admin request, and made nothing", async () => {
    const still = await injectRequest(gateway, 'GET', '/api/console/session', { headers: { cookie: `mg_session=${user}` } });
    assert.deepEqual([still.json.user.name, still.json.user.admin], ['ada', false]);
    const audit = await injectRequest(gateway, 'GET', '/api/console/admin/audit', { headers: { cookie: `mg_session=${admin}` } });
    // root made through the setup link, then ada by root: nothing of the refused requests.
    assert.deepEqual(audit.json.data.map((r: { action: string; actor: string; target: string }) => [r.actor, r.action, r.target]), [['root', 'user.create', 'ada'], ['root', 'user.create', 'root']]);
    const codes = await injectRequest(gateway, 'GET', '/api/console/admin/codes', { headers: { cookie: `mg_session=${admin}` } });
    assert.deepEqual(codes.json, { object: 'list', data: [], next_before: null });
    const channels = await injectRequest(gateway, 'GET', '/api/console/admin/channels', { headers: { cookie: `mg_session=${admin}` } });
    assert.deepEqual(channels.json.data.map((c: { name: string; status: string }) => [c.name, c.status]), [['echo', 'enabled']], 'the bootstrap channel, untouched');
  });
});
