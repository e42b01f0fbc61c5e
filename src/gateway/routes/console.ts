/**
 * The web console (contract 1.3): the page at `/`, `/console` and `/device` (the app, src/console, reads
 * the address), its hashed files under /assets/, and the JSON of the console opened with a key, authenticated like /v1 (same 401/403 codes; api.ts asks for the key). A key sees its own facts and logs, never another's,
 * and never its secret. Console reads are not request logs: they would bury the client requests
 * the user opens the console to find (failed reads still are logged, by the app).
 */
import { ASSETS_PATH, consoleFiles } from '../console/assets.ts';
import { cutWithMarker, logErrorMessage } from '../../contract/index.ts';
import { HttpError } from '../http/errors.ts';
import { setBaseHeaders } from '../http/headers.ts';
import { isoTime, modelView, money } from './consoleCatalog.ts';
import { attemptsOfLog } from '../channelHealthReport.ts';
import type { StoredLog } from '../store/types.ts';
import type { ApiHandler } from './api.ts';
import type { Handler } from './common.ts';
import { MAX_PATH_SHOWN } from '../context.ts';

export const DEFAULT_LOG_LIMIT = 50;

/** The console's page: its own CSP, never cached (it names the current files), never framed. */
export const page: Handler = (_gw, ctx) => {
  const { html, csp } = consoleFiles();
  setBaseHeaders(ctx.res, ctx.id);
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', 'text/html; charset=utf-8');
  ctx.res.setHeader('Content-Security-Policy', csp);
  ctx.res.setHeader('Cache-Control', 'no-store');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.setHeader('Referrer-Policy', 'no-referrer');
  ctx.res.setHeader('X-Frame-Options', 'DENY');
  ctx.res.setHeader('Content-Length', html.byteLength);
  ctx.noLog = true;
  ctx.res.end(html);
};

/** GET /assets/NAME: a file of the console, kept by browsers for a year (a new build has new names). */
export const asset: Handler = (_gw, ctx) => {
  const file = consoleFiles().assets.get(ctx.path.slice(ASSETS_PATH.length));
  if (!file) throw new HttpError('not_found', `GET ${cutWithMarker(ctx.path, MAX_PATH_SHOWN)} does not exist.`);
  const gzip = /\bgzip\b/.test(String(ctx.req.headers['accept-encoding'] ?? ''));
  const body = gzip ? file.gzipped : file.body;
  setBaseHeaders(ctx.res, ctx.id);
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', file.type);
  ctx.res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.setHeader('Vary', 'Accept-Encoding');
  if (gzip) ctx.res.setHeader('Content-Encoding', 'gzip');
  ctx.res.setHeader('Content-Length', body.byteLength);
  ctx.noLog = true;
  ctx.res.end(body);
};

/** GET /api/console/me: the key (masked), its account's balance, the models it may use with their prices. */
export const me: ApiHandler<'getMe'> = ({ catalog, ledger }, _ctx, { caller: key }) => {
  const account = catalog.account(key.accountId);
  const { balance, spent } = ledger.balances(key.accountId);
  return {
    body: {
      object: 'console.me',
      key: {
        name: key.name, prefix: key.prefix, status: key.status, models: key.models ? [...key.models] : null, expires_at: isoTime(key.expiresAt),
        created_at: isoTime(key.createdAt), rpm: key.rpm, concurrency: key.concurrency,
      },
      account: { name: account?.name ?? null },
      balance: { remaining: money(balance), used: money(spent) },
      models: catalog.modelsForKey(key).map(({ name, model }) => modelView(name, model)),
    },
  };
};

function logView(l: StoredLog) {
  return {
    time: new Date(l.time).toISOString(), request_id: l.requestId, method: l.method, path: l.path, model: l.model, status: l.status, error_code: l.errorCode,
    error_message: logErrorMessage(l.errorCode),
    prompt_tokens: l.promptTokens, completion_tokens: l.completionTokens, usage_estimated: l.usageEstimated, cost: money(l.cost), latency_ms: l.latencyMs,
    first_byte_ms: l.firstByteMs, stream: l.stream, completion_cap: l.completionCap ?? null, attempts: attemptsOfLog(l.attempts),
  };
}

/**
 * GET /api/console/logs?limit=N (1..200, default 50): this key's logs, newest first.
 * Logs are written in batches; a read flushes the queue first so a request just made is listed.
 * The flush never blocks a chat request (they only queue), and the query walks the key_id index.
 */
export const logs: ApiHandler<'listKeyLogs'> = async (gw, _ctx, { caller: key, query }) => {
  const limit = query.limit ?? DEFAULT_LOG_LIMIT;
  await gw.logs.flush();
  const rows = await gw.store.listKeyLogs(key.id, limit);
  return { body: { object: 'list', limit, data: rows.map(logView) } };
};
