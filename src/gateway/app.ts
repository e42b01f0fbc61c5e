/**
 * The route table and the request pipeline: request id, CORS, routing, and the one place that
 * turns any thrown error into the contract's JSON error. No request can crash the server.
 */
import { CLIENT_CLOSED_STATUS, ClientGoneError } from './http/body.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ADMIN_CHANNELS_PATH, ADMIN_CODES_DISABLE_PATH, ADMIN_CODES_PATH, ADMIN_MODEL_PRICE_PATH, ADMIN_MODELS_PATH, BILLING_DAILY_PATH, BILLING_SUBSCRIPTION_PATH, BILLING_USAGE_PATH, DEVICE_AUTHORIZATION_PATH, DEVICE_PAGE_PATH,
  REDEEM_PATH, STATUS_PATH, TOKEN_PATH,
} from '../contract/index.ts';
import { emptyLogFields, finishLog } from './context.ts';
import { newRequestId } from './http/requestId.ts';
import type { RequestContext } from './context.ts';
import type { Gateway } from './gateway.ts';
import { HttpError, sendError } from './http/errors.ts';
import { setBaseHeaders } from './http/headers.ts';
import { subscription, usage } from './routes/billing.ts';
import { daily } from './routes/billingDaily.ts';
import { CHAT, COMPLETION, EMBEDDING, IMAGE, MESSAGES, RESPONSES } from './routes/endpoints.ts';
import { countTokens } from './routes/countTokens.ts';
import { relayed } from './routes/relayed.ts';
import * as consoleRoutes from './routes/console.ts';
import * as consoleSession from './routes/consoleSession.ts';
import { createOwnKey, keyAction, keys as ownKeys, setOwnKeyLimits } from './routes/consoleKeys.ts';
import * as consoleDevice from './routes/consoleDevice.ts';
import * as consoleCatalog from './routes/consoleCatalog.ts';
import * as consoleLogs from './routes/consoleLogs.ts';
import { changePassword } from './routes/consolePassword.ts';
import * as consoleAdmin from './routes/consoleAdmin.ts';
import { auditLog } from './routes/consoleAudit.ts';
import { adminCodes, adminCreateCodes, adminDisableCodes } from './routes/consoleCodes.ts';
import * as consoleChannels from './routes/consoleChannels.ts';
import { adminModels, adminPriceModel } from './routes/consolePrices.ts';
import { redeem } from './routes/consoleRedeem.ts';
import { deviceAuthorization, token } from './routes/oauthDevice.ts';
import type { Handler } from './routes/common.ts';
import { models } from './routes/models.ts';
import { status } from './routes/status.ts';

type Method = 'GET' | 'POST';

/** The Anthropic Messages API (what Claude Code sends), under the same /v1 base. */
const MESSAGES_PATH = '/v1/messages';

export const ROUTES: Readonly<Record<string, Partial<Record<Method, Handler>>>> = {
  [STATUS_PATH]: { GET: status },
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
  // The web console (contract 1.3): the page, and its JSON for the key it is opened with.
  '/': { GET: consoleRoutes.page },
  '/console': { GET: consoleRoutes.page },
  '/api/console/me': { GET: consoleRoutes.me },
  '/api/console/logs': { GET: consoleRoutes.logs },
  // Signing in with a user name and password (issue 10): a session cookie, then the user's own keys.
  '/api/console/login': { POST: consoleSession.login },
  '/api/console/logout': { POST: consoleSession.logout },
  '/api/console/session': { GET: consoleSession.session },
  '/api/console/setup': { POST: consoleSession.setup },
  '/api/console/keys': { GET: ownKeys, POST: createOwnKey },
  '/api/console/keys/disable': { POST: keyAction('disable') },
  '/api/console/keys/enable': { POST: keyAction('enable') },
  '/api/console/keys/delete': { POST: keyAction('delete') },
  '/api/console/keys/rotate': { POST: keyAction('rotate') },
  '/api/console/keys/limits': { POST: setOwnKeyLimits },
  '/api/console/models': { GET: consoleCatalog.catalogue },
  '/api/console/account/logs': { GET: consoleLogs.accountLogs },
  '/api/console/password': { POST: changePassword },
  '/api/console/account': { GET: consoleSession.account },
  // Top-up with a redemption code (issue 10).
  [REDEEM_PATH]: { POST: redeem },
  // The admins' console (issue 10): users, top-ups, the audit log, redemption codes, channels, prices; 403 admin_required for everyone else.
  '/api/console/admin/users': { GET: consoleAdmin.adminUsers, POST: consoleAdmin.adminCreateUser },
  '/api/console/admin/users/disable': { POST: consoleAdmin.adminUserAction('disable') },
  '/api/console/admin/users/enable': { POST: consoleAdmin.adminUserAction('enable') },
  '/api/console/admin/users/password': { POST: consoleAdmin.adminUserAction('password') },
  '/api/console/admin/users/admin': { POST: consoleAdmin.adminUserAction('admin') },
  '/api/console/admin/accounts/topup': { POST: consoleAdmin.adminTopUp },
  '/api/console/admin/audit': { GET: auditLog },
  [ADMIN_CODES_PATH]: { GET: adminCodes, POST: adminCreateCodes },
  [ADMIN_CODES_DISABLE_PATH]: { POST: adminDisableCodes },
  [ADMIN_CHANNELS_PATH]: { GET: consoleChannels.adminChannels, POST: consoleChannels.adminAddChannel },
  [`${ADMIN_CHANNELS_PATH}/update`]: { POST: consoleChannels.adminUpdateChannel },
  [`${ADMIN_CHANNELS_PATH}/disable`]: { POST: consoleChannels.adminChannelAction('disable') },
  [`${ADMIN_CHANNELS_PATH}/enable`]: { POST: consoleChannels.adminChannelAction('enable') },
  [`${ADMIN_CHANNELS_PATH}/delete`]: { POST: consoleChannels.adminChannelAction('delete') },
  [`${ADMIN_CHANNELS_PATH}/test`]: { POST: consoleChannels.adminTestChannel },
  [ADMIN_MODELS_PATH]: { GET: adminModels },
  [ADMIN_MODEL_PRICE_PATH]: { POST: adminPriceModel },
  // Device sign-in with the browser (RFC 8628, contract 4.11): the device's OAuth endpoints, the approval page and its JSON.
  [DEVICE_AUTHORIZATION_PATH]: { POST: deviceAuthorization },
  [TOKEN_PATH]: { POST: token },
  [DEVICE_PAGE_PATH]: { GET: consoleDevice.approvalPage },
  '/api/console/device/lookup': { POST: consoleDevice.lookup },
  '/api/console/device/approve': { POST: consoleDevice.approve },
  '/api/console/device/deny': { POST: consoleDevice.deny },
};

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
    return new HttpError('endpoint_not_supported', `${method} ${path} is not supported by this gateway; it serves ${SERVED_V1}.`);
  }
  return new HttpError('not_found', `${method} ${path} does not exist.`);
}

/** The methods a route answers, as the Allow header lists them (GET brings HEAD). */
function allowed(route: Partial<Record<Method, Handler>>): string[] {
  const methods = Object.keys(route);
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}

/** The longest path kept (in the log row) or echoed (in messages): a long URL is cut, with a marker. */
export const MAX_PATH_SHOWN = 256;

function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?', 1)[0]!;
  const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
  return path || '/';
}

function shown(path: string): string {
  return path.length > MAX_PATH_SHOWN ? `${path.slice(0, MAX_PATH_SHOWN)}…(${path.length} characters)` : path;
}

export interface App {
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Requests being handled now. */
  readonly inFlight: ReadonlySet<Promise<void>>;
  /** Aborts every request in flight (server stopping). */
  abortAll(): void;
}

export function createApp(gw: Gateway, onInternalError: (error: unknown, requestId: string) => void): App {
  const inFlight = new Set<Promise<void>>();
  const controllers = new Set<AbortController>();

  async function run(ctx: RequestContext, controller: AbortController): Promise<void> {
    const { req, res } = ctx;
    try {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method === 'OPTIONS') {
        setBaseHeaders(res, ctx.id);
        res.statusCode = 204;
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, HEAD, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type');
        res.setHeader('Access-Control-Max-Age', '600');
        res.setHeader('Allow', 'GET, POST, HEAD, OPTIONS');
        res.end();
        return;
      }
      const route = ROUTES[ctx.path];
      if (!route) throw unknownPath(req.method ?? '', ctx.path);
      const handler = route[method as Method];
      if (!handler) throw new HttpError('method_not_allowed', `${ctx.path} accepts ${allowed(route).join(', ')}, not ${req.method}.`, { Allow: allowed(route).join(', ') });
      await handler(gw, ctx);
    } catch (error) {
      if (error instanceof ClientGoneError) {
        ctx.log.errorCode = 'client_aborted';
        res.statusCode = CLIENT_CLOSED_STATUS;
        res.destroy();
      } else if (error instanceof HttpError) {
        ctx.log.errorCode = error.code;
        sendError(res, ctx.id, error.code, error.detail, { headers: error.headers, shape: ctx.errorShape });
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
    const path = shown(pathOf(req.url));
    const ctx: RequestContext = {
      id: newRequestId(), req, res, path, time: Date.now(), started: performance.now(),
      signal: controller.signal, log: emptyLogFields(), logWritten: false, noLog: false,
      // Anthropic's clients read errors in Anthropic's shape (their SDKs pick the error class from it).
      errorShape: path === MESSAGES_PATH || path.startsWith(`${MESSAGES_PATH}/`) ? 'anthropic' : 'openai',
    };
    // X-Request-Id and CORS are set by whatever writes the answer (headers.ts): the relay's answers
    // put every header in one writeHead, which is cheaper than setHeader calls made here.
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
      for (const c of controllers) c.abort(new Error('gateway stopping'));
    },
  };
}
