// The route table swept in process with each credential where it does not belong (issue 10): an admin
// access token is accepted by the admin routes only (and cannot make tokens), without the console's CSRF
// proof; everywhere else, /v1 included, it is 401 admin_token_not_accepted. An API key on the signed-in
// and admin routes is 401 api_key_not_accepted. Every refusal is one the route's row documents.
import assert from 'node:assert/strict';
import { ROUTES } from '../../../src/gateway/app.ts';
import { createGateway, type GatewayInstance } from '../../../src/gateway/server.ts';
import { assertAnthropicError } from '../../support/answer.ts';
import { assertRefusal, needsQuery } from '../../support/documented.ts';
import { injectRequest } from '../../support/inject.ts';

const ADMIN_PREFIX = '/api/console/admin/';
const TOKENS = '/api/console/admin/tokens';
const fromPage = { 'x-model-gateway-console': '1' };
/** The routes a browser session calls (the console's own, beside the admins'). */
const SESSION_ROUTES = ['/api/console/keys', '/api/console/models', '/api/console/account', '/api/console/password', '/api/console/device/', '/api/console/account/', '/api/console/dashboard'];
const isSession = (path: string) => SESSION_ROUTES.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)) || path.startsWith(`${p}/`));
const all = Object.entries(ROUTES).flatMap(([path, methods]) => Object.keys(methods).map((method) => [method, path] as const));

describe('the route table, in process, with credentials where they do not belong', () => {
  let gateway: GatewayInstance;
  let token: string;
  let key: string;
  let cookie: string;

  before(async () => {
    gateway = await createGateway({ inMemory: true, bootstrap: true, echoDelayMs: 0, firstAdminSetup: true });
    key = gateway.bootstrapKey!;
    const setup = await injectRequest(gateway, 'POST', '/api/console/setup', { headers: fromPage, body: { token: gateway.setupToken, name: 'root', password: 'root password 1' } });
    assert.equal(setup.status, 201, setup.text);
    cookie = `mg_session=${/^mg_session=([^;]+)/.exec(setup.headers.get('set-cookie')!)![1]}`;
    const made = await injectRequest(gateway, 'POST', TOKENS, { headers: { ...fromPage, cookie }, body: { name: 'sweep' } });
    assert.equal(made.status, 201, made.text);
    token = made.json.token;
    assert.match(token, /^mgt-[A-Za-z0-9_-]{43}$/);
  });
  after(async () => {
    await gateway.drain(0);
    await gateway.close();
  });

  it('finds the session routes and the admin routes it sweeps', () => {
    assert.ok(all.filter(([, p]) => isSession(p)).length >= 14, 'session routes');
    assert.ok(all.filter(([, p]) => p.startsWith(ADMIN_PREFIX)).length >= 14, 'admin routes');
  });

  for (const [method, path] of all) {
    const body = method === 'POST' ? {} : undefined;
    if (path.startsWith(ADMIN_PREFIX)) {
      it(`${method} ${path} with an admin access token and no CSRF proof: ${method === 'POST' && path === TOKENS ? '401 admin_token_not_accepted' : 'past both'}; with an API key: 401 api_key_not_accepted`, async () => {
        const answer = await injectRequest(gateway, method, path, { key: token, body });
        if (method === 'POST' && path === TOKENS) assertRefusal(answer, method, path, 401, 'admin_token_not_accepted');
        else if (method === 'GET' && !needsQuery(method, path)) assert.equal(answer.status, 200, answer.text);
        else assertRefusal(answer, method, path, 400, 'invalid_request');
        assertRefusal(await injectRequest(gateway, method, path, { key, headers: fromPage, body }), method, path, 401, 'api_key_not_accepted');
      });
    } else if (isSession(path)) {
      it(`${method} ${path} with an admin access token: 401 admin_token_not_accepted; with an API key: 401 api_key_not_accepted`, async () => {
        assertRefusal(await injectRequest(gateway, method, path, { key: token, headers: fromPage, body }), method, path, 401, 'admin_token_not_accepted');
        assertRefusal(await injectRequest(gateway, method, path, { key, headers: fromPage, body }), method, path, 401, 'api_key_not_accepted');
      });
    } else if (path.startsWith('/v1/') || path === '/api/console/me' || path === '/api/console/logs') {
      it(`${method} ${path} with an admin access token: 401 admin_token_not_accepted, never served as a key`, async () => {
        const answer = await injectRequest(gateway, method, path, { key: token, body: method === 'POST' ? { model: 'echo', messages: [{ role: 'user', content: 'hi' }] } : undefined });
        if (path.startsWith('/v1/messages')) assertAnthropicError(answer, 401, 'admin_token_not_accepted');
        else assertRefusal(answer, method, path, 401, 'admin_token_not_accepted');
      });
    }
  }

  it("leaves a proxy's Basic credentials alone: the session beside them is what counts, and without one it is not_signed_in", async () => {
    const basic = { authorization: `Basic ${Buffer.from('proxy:secret').toString('base64')}` };
    assert.equal((await injectRequest(gateway, 'GET', '/api/console/admin/users', { headers: { ...basic, cookie } })).status, 200);
    assertRefusal(await injectRequest(gateway, 'GET', '/api/console/admin/users', { headers: basic }), 'GET', '/api/console/admin/users', 401, 'not_signed_in');
  });

  it('takes the token in the x-api-key header of the Messages API no more than in Authorization', async () => {
    const answer = await injectRequest(gateway, 'POST', '/v1/messages', { headers: { 'x-api-key': token }, body: { model: 'echo', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] } });
    assertAnthropicError(answer, 401, 'admin_token_not_accepted');
  });
});
