/**
 * The route table and the request pipeline: request id, CORS, routing, and the one place that
 * turns any thrown error into the contract's JSON error. No request can crash the server.
 */
import { CLIENT_CLOSED_STATUS, ClientGoneError } from './http/body.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANTHROPIC_REQUEST_ID_HEADER, API_PREFIX, BILLING_DAILY_PATH, BILLING_SUBSCRIPTION_PATH, BILLING_USAGE_PATH, cutWithMarker, DEVICE_PAGE_PATH } from '../contract/index.ts';
import { emptyLogFields, finishLog, MAX_PATH_SHOWN } from './context.ts';
import { newRequestId } from './http/requestId.ts';
import type { RequestContext } from './context.ts';
import type { Gateway } from './gateway.ts';
import { HttpError, sendError } from './http/errors.ts';
import { PasswordChecksBusy } from './accounts/passwords.ts';
import { setBaseHeaders } from './http/headers.ts';
import { subscription, usage } from './routes/billing.ts';
import { daily } from './routes/billingDaily.ts';
import { CHAT, COMPLETION, EMBEDDING, IMAGE, MESSAGES, RESPONSES } from './routes/endpoints.ts';
import { countTokens } from './routes/countTokens.ts';
import { relayed } from './routes/relayed.ts';
import { asset, page } from './routes/console.ts';
import { ASSETS_PATH } from './console/assets.ts';
import { apiRoutes } from './routes/api.ts';
import { API_HANDLERS } from './routes/apiHandlers.ts';
import type { Handler } from './routes/common.ts';
import { MODEL_PATH_PREFIX, models, oneModel } from './routes/models.ts';
import { GATEWAY_STOPPING } from './relay/clientGone.ts';

type Method = 'GET' | 'POST';

/** The longest URL taken (8 KiB, as the 414 says). */
const MAX_URL_LENGTH = 8192;
type Routes = Readonly<Record<string, Partial<Record<Method, Handler>>>>;

/** The Anthropic Messages API (what Claude Code sends), under the same /v1 base. */
const MESSAGES_PATH = '/v1/messages';

/**
 * Everything but the management API: the model endpoints under /v1, and the console's pages. Nothing
 * here may be under /api/: those routes come from the management API's table alone, so each is in
 * the OpenAPI document (checked as the app loads).
 */
const MODEL_ROUTES_AND_PAGES: Routes = {
  '/v1/models': { GET: models },
  '/v1/chat/completions': { POST: relayed(CHAT) },
  '/v1/completions': { POST: relayed(COMPLETION) },
  '/v1/embeddings': { POST: relayed(EMBEDDING) },
  '/v1/images/generations': { POST: relayed(IMAGE) },
  '/v1/responses': { POST: relayed(RESPONSES) },
  [MESSAGES_PATH]: { POST: relayed(MESSAGES) },
  [`${MESSAGES_PATH}/count_tokens`]: { POST: countTokens },
  [BILLING_SUBSCRIPTION_PATH]: { GET: subscription },
  [BILLING_USAGE_PATH]: { GET: usage },
  [BILLING_DAILY_PATH]: { GET: daily },
  // The web console (contract 1.3) and the device approval page (contract 4.11); their JSON is the management API's.
  '/': { GET: page },
  '/console': { GET: page },
  [DEVICE_PAGE_PATH]: { GET: page },
};

const undocumented = Object.keys(MODEL_ROUTES_AND_PAGES).filter((path) => path.startsWith(API_PREFIX));
if (undocumented.length > 0) throw new Error(`${undocumented.join(', ')}: routes under ${API_PREFIX} come from the management API's table (contract api/routes.ts) only`);

/** Every path under /assets/: the console's files, by name. */
const ASSET_ROUTE = { GET: asset };
/** GET /v1/models/{model}: one model (a name may hold a slash, so a prefix, not a route of the table). */
const ONE_MODEL_ROUTE = { GET: oneModel };

/** The route table: the model endpoints and pages, and the management API (contract api/routes.ts, each route with its handler). */
export const ROUTES: Routes = { ...MODEL_ROUTES_AND_PAGES, ...apiRoutes(API_HANDLERS) };

/** Error listeners for the request and response: their errors show as a closed response, handled there. */
function ignore(): void {}

/** The /v1 endpoints this gateway serves, for messages. */
const SERVED_V1 = Object.keys(ROUTES).filter((path) => path.startsWith('/v1/')).join(', ');

/**
 * A path the route table lacks. Under /v1/ it is an OpenAI-style endpoint we do not have (audio,
 * files, batches...): the base address is right, so say so. Anything else suggests a wrong base address:
 * a missing /v1, or one too many (/v1/v1/..., or /v1 before a path that lives at the root, like /v1/api/status).
 */
function unknownPath(method: string, path: string): HttpError {
  const rest = path.slice('/v1'.length);
  const wrongBase = rest === '/v1' || rest.startsWith('/v1/') || rest.startsWith('/api/') || ROUTES[rest] !== undefined;
  if (path.startsWith('/v1/') && !wrongBase) {
    return new HttpError('endpoint_not_supported', `${method} ${shown(path)} is not supported by this gateway; it serves ${SERVED_V1}.`);
  }
  return new HttpError('not_found', `${method} ${shown(path)} does not exist.`);
}

/** The methods a route answers, as the Allow header lists them (GET brings HEAD). */
function allowed(route: Partial<Record<Method, Handler>>): string[] {
  const methods = Object.keys(route);
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}


const ABSOLUTE_FORM = /^https?:\/\/[^/]*/i;

/** The route of a path: its own, a console file's, or one model's (GET /v1/models/NAME). */
function routeOf(path: string): Partial<Record<Method, Handler>> | undefined {
  return ROUTES[path] ?? (path.startsWith(ASSETS_PATH) ? ASSET_ROUTE : path.startsWith(MODEL_PATH_PREFIX) ? ONE_MODEL_ROUTE : undefined);
}

function pathOf(url: string | undefined): string {
  let raw = (url ?? '/').split('?', 1)[0]!;
  // The absolute form (GET http://host/v1/models), which a server must take (RFC 9112 3.2.2): its path as written
  // (dot segments not resolved, as in the usual form: what a proxy in front filtered on is what is served).
  if (raw[0] !== '/') raw = raw.replace(ABSOLUTE_FORM, '') || '/';
  // A base address written with a trailing slash meets a client that adds its own ("/v1//chat/completions"):
  // the path it means, as nginx's merge_slashes serves it.
  if (raw.includes('//')) raw = raw.replace(/\/{2,}/g, '/');
  const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
  return path || '/';
}

function shown(path: string): string {
  return cutWithMarker(path, MAX_PATH_SHOWN);
}

export interface App {
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Requests being handled now. */
  readonly inFlight: ReadonlySet<Promise<void>>;
  /** Aborts every request in flight (server stopping). */
  abortAll(): void;
  /** Stopping: from now on a new request is answered 503 gateway_stopping, and every answer closes its connection. */
  closeConnectionsAfterAnswers(): void;
}

export function createApp(gw: Gateway, onInternalError: (error: unknown, requestId: string) => void): App {
  const inFlight = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();
  let lastAnswers = false;

  async function run(ctx: RequestContext, controller: AbortController): Promise<void> {
    const { req, res } = ctx;
    try {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method === 'OPTIONS') {
        // The methods of the path asked about, as its 405 lists them (every method for a path that is not one).
        const known = routeOf(ctx.path);
        const methods = known ? allowed(known).join(', ') : 'GET, POST, HEAD, OPTIONS';
        setBaseHeaders(res, ctx.id);
        res.statusCode = 204;
        res.setHeader('Access-Control-Allow-Methods', methods);
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type');
        res.setHeader('Access-Control-Max-Age', '600');
        res.setHeader('Allow', methods);
        res.end();
        return;
      }
      // The limit the 414 names (Node's own is the whole header block, 16 KiB).
      if ((req.url?.length ?? 0) > MAX_URL_LENGTH) throw new HttpError('uri_too_long', 'Keep it under 8 KiB.');
      // Stopping: a request that still arrives on an open connection is answered at once, and its connection closed.
      if (lastAnswers) throw new HttpError('gateway_stopping', undefined, { 'Retry-After': '1' });
      const route = routeOf(ctx.path);
      if (!route) throw unknownPath(req.method ?? '', ctx.path);
      const handler = route[method as Method];
      if (!handler) throw new HttpError('method_not_allowed', `${shown(ctx.path)} accepts ${allowed(route).join(', ')}, not ${req.method}.`, { Allow: allowed(route).join(', ') });
      await handler(gw, ctx);
    } catch (thrown) {
      const error = thrown instanceof PasswordChecksBusy ? new HttpError('password_checks_busy', undefined, { 'Retry-After': '1' }) : thrown;
      if (error instanceof ClientGoneError) {
        ctx.log.errorCode = 'client_aborted';
        res.statusCode = CLIENT_CLOSED_STATUS;
        res.destroy();
      } else if (error instanceof HttpError) {
        ctx.log.errorCode = error.code;
        sendError(res, ctx.id, error.code, error.detail, { headers: error.headers, shape: ctx.errorShape, details: error.details });
      } else {
        ctx.log.errorCode = 'internal_error';
        onInternalError(error, ctx.id);
        sendError(res, ctx.id, 'internal_error', undefined, { shape: ctx.errorShape });
      }
    } finally {
      finishLog(gw.logs, ctx);
      controllers.delete(controller);
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const controller = new AbortController();
    controllers.add(controller);
    // Sent as "Connection: close", and Node closes the connection once this answer is out.
    if (lastAnswers) res.shouldKeepAlive = false;
    // Routed whole (a model's name in /v1/models/NAME may be long once encoded); cut where it is logged or echoed.
    const path = pathOf(req.url);
    const ctx: RequestContext = {
      // The gateway's clock, the one keys' days and periods follow: a log row falls on the day its request was counted in.
      id: newRequestId(), req, res, path, time: gw.usage.now(), started: performance.now(),
      signal: controller.signal, log: emptyLogFields(), logWritten: false, noLog: false,
      // Anthropic's clients read errors in Anthropic's shape (their SDKs pick the error class from it).
      errorShape: path === MESSAGES_PATH || path.startsWith(`${MESSAGES_PATH}/`) ? 'anthropic' : 'openai',
      trustProxy: gw.trustProxy,
    };
    // X-Request-Id and CORS are set by whatever writes the answer (headers.ts): the relay's answers
    // put every header in one writeHead, which is cheaper than setHeader calls made here. Anthropic's SDKs read the
    // request id only from their own header (message._request_id, an error's requestID): set here for their paths.
    if (ctx.errorShape === 'anthropic') res.setHeader(ANTHROPIC_REQUEST_ID_HEADER, ctx.id);
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    req.on('error', ignore);
    res.on('error', ignore);
    const job = run(ctx, controller).catch((error: unknown) => onInternalError(error, ctx.id));
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  }

  return {
    handle,
    inFlight,
    abortAll: () => {
      for (const c of controllers) c.abort(GATEWAY_STOPPING);
    },
    closeConnectionsAfterAnswers: () => {
      lastAnswers = true;
    },
  };
}
