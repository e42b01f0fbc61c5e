/**
 * The management API served from its table (contract api/routes.ts): one handler per route id, and one
 * layer that does for every route what its row says, in this order: who may call it (apiAuth.ts), the
 * console's CSRF proof for a change made with a session, the query parsed by its schema, the JSON body
 * read and parsed by its schema; then the handler, whose answer is typed by the row's response schema and
 * sent here. So the document generated from the table (GET /api/openapi.json) says what is served.
 * Answers are not request logs when they succeed (they would bury the client requests the console is
 * opened to find), unless a handler says so; refusals are, without the credentials or the body.
 */
import type { z } from 'zod';
import { API_ROUTES, quoteClientValue, type ApiAuth, type ApiRoute, type ApiRouteId, type ApiRoutes } from '../../contract/index.ts';
import { ClientGoneError, parseJsonBody, readBody } from '../http/body.ts';
import { HttpError } from '../http/errors.ts';
import { OAuthError, oauthErrorOf, sendOAuthError } from '../http/oauth.ts';
import { setBaseHeaders } from '../http/headers.ts';
import { sendJson } from '../http/json.ts';
import { requireJsonBody, requireSameOrigin } from '../http/sameOrigin.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { KeyRecord } from '../store/types.ts';
import { authenticateApi, type AdminCaller } from './apiAuth.ts';
import type { Handler } from './common.ts';
import { parseBody } from './consoleSchemas.ts';
import type { SignedIn } from './session.ts';

/** Console bodies are a few fields: a megabyte of "name" is refused before it is read. */
const MAX_CONSOLE_BODY_BYTES = 64 * 1024;

type Schema<R, K extends string> = R extends { readonly [P in K]: infer S extends z.ZodType } ? S : never;
type QueryOf<R> = [Schema<R, 'query'>] extends [never] ? Record<string, never> : z.output<Schema<R, 'query'>>;
type BodyOf<R> = [Schema<R, 'body'>] extends [never] ? undefined : z.output<Schema<R, 'body'>>;
type AnswerOf<R> = R extends { readonly response: { readonly schema: infer S extends z.ZodType } } ? z.input<S> : never;

/** Who called, as the route's auth says: a key, a signed-in user, an admin (by session or token), or nobody in particular. */
export type CallerOf<A extends ApiAuth> = A extends 'key' ? KeyRecord : A extends 'session' ? SignedIn : A extends 'admin' | 'admin_session' ? AdminCaller : undefined;

export interface ApiInput<R extends ApiRoute> {
  readonly query: QueryOf<R>;
  readonly body: BodyOf<R>;
  readonly caller: CallerOf<R['auth']>;
}

/** A JSON answer: the row's status unless another is given, extra headers, and whether a success is a request log. */
export interface Reply<Body> {
  readonly status?: number;
  readonly body: Body;
  readonly headers?: Readonly<Record<string, string>>;
  readonly logged?: true;
}

/** An answer of bytes made already (the logs as CSV, where the row says the route has one; this document; a 304). */
export interface FileReply {
  readonly status?: number;
  readonly file: Buffer;
  readonly contentType: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The handler wrote the answer and its log row itself (the playground's relayed stream): nothing is left to send. */
export interface AnsweredReply {
  readonly answered: true;
}

type AnyReply<Id extends ApiRouteId> = Reply<AnswerOf<ApiRoutes[Id]>> | FileReply | AnsweredReply;

export type ApiHandler<Id extends ApiRouteId> = (gw: Gateway, ctx: RequestContext, input: ApiInput<ApiRoutes[Id]>) => AnyReply<Id> | Promise<AnyReply<Id>>;

/** A handler for every route of the table, and none for a route it lacks. */
export type ApiHandlers = { readonly [Id in ApiRouteId]: ApiHandler<Id> };

/** The request's query by the row's schema: an empty value is an absent one; a bad one is a 400 naming it. */
function queryOf(route: ApiRoute, ctx: RequestContext): unknown {
  if (!route.query) return {};
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(ctx.req.url?.split('?')[1] ?? '')) if (value !== '' && !(name in params)) params[name] = value;
  const parsed = route.query.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const detail = issue.code === 'unrecognized_keys' ? `unknown parameter ${quoteClientValue(issue.keys[0])}` : `${issue.path.map(String).join('.')} ${issue.message}`;
  throw new HttpError('invalid_request', `${detail}.`);
}

async function bodyOf(gw: Gateway, route: ApiRoute, ctx: RequestContext): Promise<unknown> {
  if (!route.body) return undefined;
  requireJsonBody(ctx.req);
  return parseBody(route.body, parseJsonBody(await readBody(ctx.req, { ...gw.body, maxBytes: MAX_CONSOLE_BODY_BYTES }, ctx.started)));
}

function send(ctx: RequestContext, route: ApiRoute, reply: Reply<unknown> | FileReply | AnsweredReply): void {
  if ('answered' in reply) return;
  for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.res.setHeader(name, value);
  if ('file' in reply && reply.status === 304) {
    setBaseHeaders(ctx.res, ctx.id);
    ctx.res.statusCode = 304;
    ctx.noLog = true;
    ctx.res.end();
    return;
  }
  if ('file' in reply) {
    setBaseHeaders(ctx.res, ctx.id);
    ctx.res.statusCode = reply.status ?? route.response.status;
    ctx.res.setHeader('Content-Type', reply.contentType);
    ctx.res.setHeader('Content-Length', reply.file.byteLength);
    ctx.noLog = true;
    ctx.res.end(reply.file);
    return;
  }
  if (!reply.logged) ctx.noLog = true;
  // An account's data, a new key's secret, a session: never kept by a browser's or a proxy's cache.
  if (!ctx.res.hasHeader('Cache-Control')) ctx.res.setHeader('Cache-Control', 'no-store');
  sendJson(ctx.res, ctx.id, reply.status ?? route.response.status, reply.body);
}

/** The device's OAuth endpoints answer every refusal in RFC 6749's body, the HTTP layer's too (a body too large, too late). */
function inOAuthShape(handler: Handler): Handler {
  return async (gw, ctx) => {
    try {
      await handler(gw, ctx);
    } catch (error) {
      if (error instanceof ClientGoneError || !(error instanceof OAuthError || error instanceof HttpError)) throw error;
      const refusal = error instanceof HttpError ? oauthErrorOf(error) : error;
      ctx.log.errorCode = refusal.error;
      sendOAuthError(ctx.res, ctx.id, refusal);
    }
  };
}

function bind<Id extends ApiRouteId>(route: ApiRoutes[Id], handler: ApiHandler<Id>): Handler {
  const served: Handler = async (gw, ctx) => {
    if (route.auth === 'sign_in' && route.method === 'POST') requireSameOrigin(ctx.req, ctx.trustProxy);
    const caller = await authenticateApi(gw, ctx, route.auth);
    // A change made with a session cookie must come from the console page; a token is no ambient credential.
    const viaToken = caller !== undefined && 'token' in caller && caller.token !== null;
    if (route.method === 'POST' && route.auth !== 'public' && route.auth !== 'sign_in' && !viaToken) requireSameOrigin(ctx.req, ctx.trustProxy);
    const query = queryOf(route, ctx);
    const body = await bodyOf(gw, route, ctx);
    send(ctx, route, await handler(gw, ctx, { query, body, caller } as ApiInput<ApiRoutes[Id]>));
  };
  return 'oauthErrors' in route ? inOAuthShape(served) : served;
}

/** The routes of the table with their handlers, as the app's route table holds them (path -> method -> handler). */
export function apiRoutes(handlers: ApiHandlers): Record<string, Partial<Record<'GET' | 'POST', Handler>>> {
  const table: Record<string, Partial<Record<'GET' | 'POST', Handler>>> = {};
  for (const id of Object.keys(API_ROUTES) as ApiRouteId[]) {
    const route = API_ROUTES[id];
    (table[route.path] ??= {})[route.method] = bind(route, handlers[id] as ApiHandler<typeof id>);
  }
  return table;
}
