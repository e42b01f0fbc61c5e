// GET /api/openapi.json, in process: a valid OpenAPI 3.1 document (checked by an OpenAPI validator
// against the specification's own JSON Schema), every $ref resolving, the route table and the document
// covering each other both ways, each operation's security and errors as its row says, and the 7.1 error
// body and both credentials described once as components.
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_ROUTES, ERROR_CODES, errorCodesOf, MIN_PASSWORD_LENGTH, type ApiRoute } from '../../../src/contract/index.ts';
import { ROUTES } from '../../../src/gateway/app.ts';
import { createGateway, type GatewayInstance } from '../../../src/gateway/server.ts';
import { injectRequest } from '../../support/inject.ts';

type Json = Record<string, any>;

/** Every value of `doc` under a "$ref" key. */
function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

function resolve(doc: Json, pointer: string): unknown {
  assert.ok(pointer.startsWith('#/'), `a local reference: ${pointer}`);
  return pointer.slice(2).split('/').reduce<unknown>((at, part) => (at as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

const operations = (doc: Json) => Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op: op as Json })));

describe('GET /api/openapi.json, in process', () => {
  let gateway: GatewayInstance;
  let doc: Json;
  let answer: Awaited<ReturnType<typeof injectRequest>>;

  before(async () => {
    gateway = await createGateway({ inMemory: true, bootstrap: true, echoDelayMs: 0 });
    answer = await injectRequest(gateway, 'GET', '/api/openapi.json');
    doc = answer.json;
  });
  after(async () => {
    await gateway.drain(0);
    await gateway.close();
  });

  it('answers JSON without credentials, cacheable, with an ETag that a second read can revalidate (304)', async () => {
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type')!, /^application\/json/);
    assert.match(answer.headers.get('cache-control')!, /public, max-age=\d+/);
    const etag = answer.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await injectRequest(gateway, 'GET', '/api/openapi.json', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal((await injectRequest(gateway, 'GET', '/api/openapi.json', { headers: { 'if-none-match': '"other"' } })).status, 200);
  });

  it('is a valid OpenAPI 3.1 document (the specification\'s JSON Schema, by @seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.deepEqual(result, { valid: true });
    assert.equal(validator.version, '3.1');
    assert.equal(doc.openapi, '3.1.0');
  });

  it('fails that validator when it is broken: the check is real', async () => {
    const broken = structuredClone(doc);
    delete broken.info.version;
    broken.paths['/api/status'].get.responses = 'none';
    assert.equal((await new Validator().validate(broken)).valid, false);
  });

  it('resolves every $ref inside itself', () => {
    const refs = [...new Set(refsOf(doc))];
    assert.ok(refs.length > 40, `${refs.length} references`);
    for (const ref of refs) assert.ok(resolve(doc, ref) !== undefined, `${ref} resolves`);
  });

  it('lists every route of the server under /api/, and nothing the server does not serve', () => {
    const served = Object.entries(ROUTES).filter(([path]) => path.startsWith('/api/')).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`)).sort();
    const documented = operations(doc).map((o) => o.key).sort();
    assert.deepEqual(documented, served);
    assert.ok(served.length >= 38, `${served.length} routes`);
    for (const path of Object.keys(ROUTES).filter((p) => !p.startsWith('/api/'))) assert.equal(doc.paths[path], undefined, `${path} is not the management API`);
    for (const must of ['POST /api/console/admin/tokens', 'GET /api/console/admin/tokens', 'POST /api/console/admin/tokens/revoke', 'GET /api/openapi.json']) assert.ok(documented.includes(must), must);
  });

  it('gives each operation the id, security, parameters, body and errors of its row', () => {
    const byId = new Map(operations(doc).map((o) => [o.op.operationId as string, o]));
    const security: Record<ApiRoute['auth'], unknown> = {
      public: undefined, sign_in: undefined, key: [{ apiKey: [] }], session: [{ session: [] }], admin: [{ session: [] }, { adminToken: [] }], admin_session: [{ session: [] }],
    };
    for (const [id, route] of Object.entries(API_ROUTES) as [string, ApiRoute][]) {
      const found = byId.get(id);
      assert.ok(found, id);
      assert.equal(found.key, `${route.method} ${route.path}`);
      assert.deepEqual(found.op.security, security[route.auth], `${id} security`);
      assert.ok(found.op.responses[String(route.response.status)], `${id} answers ${route.response.status}`);
      assert.equal(Boolean(found.op.requestBody), Boolean(route.body || route.form), `${id} body`);
      if (route.query) assert.deepEqual(found.op.parameters.map((p: Json) => p.name).sort(), Object.keys(route.query.shape).sort(), `${id} parameters`);
      for (const code of errorCodesOf(route)) {
        const response: Json = found.op.responses[String(ERROR_CODES[code].status)];
        assert.ok(response, `${id}: ${code} has its status`);
        assert.equal(response.content['application/json'].examples[code].value.error.code, code, `${id}: ${code} is an example`);
      }
    }
    assert.deepEqual(byId.get('createAdminToken')!.op.security, [{ session: [] }], 'a token cannot make tokens');
    assert.deepEqual(byId.get('listUsers')!.op.security, [{ session: [] }, { adminToken: [] }]);
  });

  it('describes the 7.1 error body once, both credentials, and a relative server', () => {
    const error = doc.components.schemas.Error;
    assert.deepEqual(error.required, ['error']);
    assert.deepEqual(error.properties.error.properties.code.enum.sort(), Object.keys(ERROR_CODES).sort());
    assert.equal(error.properties.error.properties.type.const, 'model_gateway_error');
    assert.deepEqual(doc.components.securitySchemes.session, { ...doc.components.securitySchemes.session, type: 'apiKey', in: 'cookie', name: 'mg_session' });
    assert.deepEqual(doc.components.securitySchemes.adminToken, { ...doc.components.securitySchemes.adminToken, type: 'http', scheme: 'bearer' });
    assert.equal(doc.servers.length, 1);
    assert.ok(!/^[a-z]+:/i.test(doc.servers[0].url), `relative: ${doc.servers[0].url}`);
    const examples = (path: string, method: string, status: number) => Object.keys(doc.paths[path][method].responses[status].content['application/json'].examples);
    assert.deepEqual(examples('/api/console/admin/users', 'get', 401), ['not_signed_in', 'api_key_not_accepted', 'invalid_admin_token']);
    assert.deepEqual(examples('/api/console/admin/users', 'get', 403), ['admin_required', 'admin_token_revoked', 'admin_token_expired']);
    assert.deepEqual(examples('/api/console/keys', 'get', 401), ['not_signed_in', 'api_key_not_accepted', 'admin_token_not_accepted']);
  });

  it('says the shortest new password the server takes, and no least length for one being checked (a short wrong one is as wrong as any)', () => {
    const schemas = doc.components.schemas;
    const minOf = (schema: string, field: string) => schemas[schema].properties[field].minLength;
    for (const [schema, field] of [['NewUserBody', 'password'], ['SetupBody', 'password'], ['SignUpBody', 'password'], ['UserPasswordBody', 'password'], ['PasswordChangeBody', 'new']]) {
      assert.equal(minOf(schema, field), MIN_PASSWORD_LENGTH, `${schema}.${field}`);
    }
    assert.equal(MIN_PASSWORD_LENGTH, 10);
    assert.equal(minOf('SignInBody', 'password'), 1);
    assert.equal(minOf('PasswordChangeBody', 'current'), 1);
  });
});
