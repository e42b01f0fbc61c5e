/**
 * The web console (contract 1.3): the page at `/` and `/console`, and its JSON under /api/console/,
 * authenticated like /v1 (same 401/403 codes). A key sees its own facts and logs, never another's,
 * and never its secret. Console reads are not request logs: they would bury the client requests
 * the user opens the console to find (failed reads still are logged, by the app).
 */
import { consolePage, type ConsolePage } from '../console/page.ts';
import type { RequestContext } from '../context.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { setBaseHeaders } from '../http/headers.ts';
import { modelView, money } from './consoleCatalog.ts';
import { attemptsOfLog } from '../channelHealthReport.ts';
import type { StoredLog } from '../store/types.ts';
import { requireKey } from './common.ts';
import type { Handler } from './common.ts';

export const DEFAULT_LOG_LIMIT = 50;
export const MAX_LOG_LIMIT = 200;


const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const page: Handler = (_gw, ctx) => sendPage(ctx, consolePage());

/** A console page (the console, the device approval page): its own CSP, never cached, never framed. */
export function sendPage(ctx: RequestContext, { html, csp }: ConsolePage): void {
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
}

/** GET /api/console/me: the key (masked), its account's balance, the models it may use with their prices. */
export const me: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx);
  const account = gw.catalog.account(key.accountId);
  const { balance, spent } = gw.ledger.balances(key.accountId);
  const models = gw.catalog.modelsForKey(key).map(({ name, model }) => modelView(name, model));
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, {
    object: 'console.me',
    key: {
      name: key.name,
      prefix: key.prefix,
      status: key.status,
      models: key.models,
      expires_at: iso(key.expiresAt),
      created_at: iso(key.createdAt),
      rpm: key.rpm,
      concurrency: key.concurrency,
    },
    account: { name: account?.name ?? null },
    balance: { remaining: money(balance), used: money(spent) },
    models,
  });
};

function parseLimit(query: string): number {
  const raw = new URLSearchParams(query).get('limit');
  if (raw === null || raw === '') return DEFAULT_LOG_LIMIT;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) throw new HttpError('invalid_request', `limit must be an integer from 1 to ${MAX_LOG_LIMIT}.`);
  return Math.min(Number(raw), MAX_LOG_LIMIT);
}

function logView(l: StoredLog) {
  return {
    time: iso(l.time),
    request_id: l.requestId,
    method: l.method,
    path: l.path,
    model: l.model,
    status: l.status,
    error_code: l.errorCode,
    prompt_tokens: l.promptTokens,
    completion_tokens: l.completionTokens,
    usage_estimated: l.usageEstimated,
    cost: money(l.cost),
    latency_ms: l.latencyMs,
    first_byte_ms: l.firstByteMs,
    stream: l.stream,
    completion_cap: l.completionCap ?? null,
    attempts: attemptsOfLog(l.attempts),
  };
}

/**
 * GET /api/console/logs?limit=N (1..200, default 50): this key's logs, newest first.
 * Logs are written in batches; a read flushes the queue first so a request just made is listed.
 * The flush never blocks a chat request (they only queue), and the query walks the key_id index.
 */
export const logs: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx);
  const limit = parseLimit(ctx.req.url?.split('?')[1] ?? '');
  await gw.logs.flush();
  const rows = await gw.store.listKeyLogs(key.id, limit);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', limit, data: rows.map(logView) });
};
