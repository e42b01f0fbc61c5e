/**
 * The management API as an OpenAPI 3.1 document, generated from the route table (routes.ts) and its
 * zod schemas with zod's own z.toJSONSchema (JSON Schema 2020-12, OpenAPI 3.1's dialect): the named
 * schemas become components, each route an operation with its parameters, body, answer, security and
 * every error code it can answer, grouped by status, each with its 7.1 body as an example. Pure: the
 * gateway builds it once at start and serves it at GET /api/openapi.json.
 */
import { z } from 'zod';
import { ERROR_CODES, errorBody, type ErrorCode } from '../errors.ts';
import { OAUTH_ERRORS } from '../deviceFlow.ts';
import { GATEWAY_VERSION } from '../version.ts';
import { API_SCHEMAS } from './schema.ts';
import { API_TAGS, errorCodesOf, type ApiAuth, type ApiRoute } from './route.ts';
import { CREDENTIALS_TEXT } from './consoleRoutes.ts';
import { ADMIN_TOKEN_PREFIX } from './tokens.ts';
import { SESSION_COOKIE } from '../headers.ts';
import { compareNames } from '../values.ts';

type Json = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';
const ref = (id: string): Json => ({ $ref: `${COMPONENTS}${id}` });

/** The JSON Schema of `schema` for the document: a reference when it is a named component, else inline. */
function schemaOf(schema: z.ZodType): Json {
  const id = API_SCHEMAS.get(schema)?.id;
  if (id !== undefined) return ref(id);
  const { $schema: _, ...inline } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as Json;
  return inline;
}

function components(): Json {
  const { schemas } = z.toJSONSchema(API_SCHEMAS, { io: 'input', uri: (id) => `${COMPONENTS}${id}`, unrepresentable: 'throw' }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => compareNames(a, b)).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
}

const SECURITY: Readonly<Record<ApiAuth, Json[] | undefined>> = {
  public: undefined,
  sign_in: undefined,
  key: [{ apiKey: [] }],
  session: [{ session: [] }],
  admin: [{ session: [] }, { adminToken: [] }],
  admin_session: [{ session: [] }],
};

const WHO: Readonly<Record<ApiAuth, string>> = {
  public: 'Anyone: no credentials.',
  sign_in: 'Anyone, from the console page (Origin, or X-Model-Gateway-Console: 1).',
  key: 'An API key, Authorization: Bearer sk-... (as on /v1).',
  session: 'A signed-in user (the session cookie); a change from the console page. Not an admin access token.',
  admin: `An admin: the session cookie (a change from the console page), or an admin access token, Authorization: Bearer ${ADMIN_TOKEN_PREFIX}... (no CSRF proof).`,
  admin_session: 'An admin, signed in (the session cookie), from the console page. Not an admin access token.',
};

function parameters(query: z.ZodObject): Json[] {
  return Object.entries(query.shape).map(([name, schema]) => {
    const s = schema as z.ZodType;
    const json = schemaOf(s);
    const description = typeof json['description'] === 'string' ? json['description'] : undefined;
    return { name, in: 'query', required: !s.safeParse(undefined).success, schema: json, ...(description ? { description } : {}) };
  });
}

/** The error answers of `codes` (7.1's body), one per status, each code an example. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), {
    description: list.map((code) => `\`${code}\`: ${ERROR_CODES[code].message}`).join('\n\n'),
    headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
    content: { 'application/json': { schema: ref('Error'), examples: Object.fromEntries(list.map((code) => [code, { value: errorBody(code, 'REQUEST_ID') }])) } },
  }]));
}

/** The OAuth endpoints' refusals: RFC 6749's body. */
function oauthResponses(): Record<string, Json> {
  const body = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('OAuthError') } } });
  return {
    400: body(`RFC 6749 section 5.2 and RFC 8628 section 3.5: \`error\` is one of ${OAUTH_ERRORS.map((e) => `\`${e}\``).join(', ')}.`),
    429: body('`temporarily_unavailable`: too many sign-in requests wait from this address (Retry-After).'),
    503: body('`temporarily_unavailable`: too many sign-in requests wait (Retry-After).'),
  };
}

function requestBody(route: ApiRoute): Json | undefined {
  if (route.body) return { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } };
  if (route.form) {
    const schema = schemaOf(route.form);
    return { required: true, content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } } };
  }
  return undefined;
}

function operation(id: string, route: ApiRoute): Json {
  const success: Json = {
    description: route.response.csv ? `OK; ${route.response.csv}` : route.response.stream ? `OK; ${route.response.stream}` : route.response.status === 201 ? 'Created' : 'OK',
    headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
    // A streamed answer's events each hold one `schema` (OpenAPI 3.1 has no item schema for event streams).
    content: route.response.stream
      ? { 'text/event-stream': { schema: schemaOf(route.response.schema) } }
      : {
        'application/json': { schema: schemaOf(route.response.schema) },
        ...(route.response.csv ? { 'text/csv': { schema: { type: 'string' } } } : {}),
      },
  };
  const body = requestBody(route);
  const security = SECURITY[route.auth];
  return {
    operationId: id,
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, `Who: ${WHO[route.auth]}`].filter(Boolean).join('\n\n'),
    ...(route.query ? { parameters: parameters(route.query) } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { [String(route.response.status)]: success, ...errorResponses(errorCodesOf(route)), ...(route.oauthErrors ? oauthResponses() : {}) },
    ...(security ? { security } : {}),
  };
}

/** The document for `routes` (the gateway's table), with these schemas as components. */
export function openApiDocument(routes: Readonly<Record<string, ApiRoute>>): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [id, route] of Object.entries(routes)) {
    const item = (paths[route.path] ??= {});
    if (item[route.method.toLowerCase()]) throw new Error(`${route.method} ${route.path} is in the route table twice`);
    item[route.method.toLowerCase()] = operation(id, route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Model Gateway management API',
      version: GATEWAY_VERSION,
      description: `Everything under /api/: what the web console uses, and what scripts use to manage the gateway. ${CREDENTIALS_TEXT}\n\n`
        + 'Every refusal is the error body of contract 7.1 (the OAuth endpoints excepted, which answer RFC 6749\'s), with a stable `code`: match on it, never on the message. '
        + 'A path answered with a method it does not have is 405 `method_not_allowed` (Allow lists the methods); an unknown path is 404 `not_found`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components(),
      headers: { RequestId: { description: 'The id of this request: every error message and the request log name it.', schema: { type: 'string' } } },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The console session, set by POST /api/console/login. Changes also need the console page\'s proof (Origin, or X-Model-Gateway-Console: 1).' },
        adminToken: { type: 'http', scheme: 'bearer', bearerFormat: `${ADMIN_TOKEN_PREFIX}...`, description: 'An admin access token, made by an admin in the console (Tokens) or with model-gateway token create: the admin routes only.' },
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sk-...', description: 'An API key: /api/console/me and /api/console/logs (and the model endpoints, outside this document).' },
      },
    },
  };
}
