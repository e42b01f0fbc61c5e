/**
 * Every relayed endpoint (chat, completions, embeddings, images): key, body, model and its kind,
 * permission, limits, reservation; then the relay writes the answer, and the request is charged its
 * real usage (never more than reserved). What differs per endpoint is in endpoints.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { cutWithMarker, ENDPOINT_OF_KIND, formatMicroUsd, MAX_QUOTED_CHARS, MAX_TOKENS_HEADER, withArticle, type ModelKind } from '../../contract/index.ts';
import type { Reservation } from '../accounts/ledger.ts';
import type { Held, Leases } from '../accounts/leases.ts';
import { CLIENT_CLOSED_STATUS, parseJsonBody, readBody } from '../http/body.ts';
import { finishLog } from '../context.ts';
import { HttpError, sendError } from '../http/errors.ts';
import { costOfTokens } from '../accounts/money.ts';
import type { RelayOutcome, RelayUsage } from '../relay/types.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { KeyRecord, ModelRecord } from '../store/types.ts';
import type { Endpoint } from './endpoints.ts';
import { keyState, requireKey } from './common.ts';
import { hasOwnLimits, type KeyState } from '../accounts/keyUsage.ts';
import { periodEnd } from '../store/keySettings.ts';
import type { Handler } from './common.ts';

/**
 * "messages.0.role: Invalid input: expected string" for the first zod issue. A path's keys and zod's words (an
 * unrecognized key, quoted) can be the client's own: each is cut, so that a long one is not sent back whole.
 */
export function describeIssue(error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }, format: string): string {
  const issue = error.issues[0];
  if (!issue) return `The body does not match the ${format} format.`;
  const path = issue.path.map((key) => cutWithMarker(String(key), MAX_QUOTED_CHARS)).join('.') || 'body';
  // A record's key that is refused (zod's "Invalid key in record") says why in its own first issue.
  const why = 'issues' in issue && Array.isArray(issue.issues) ? (issue.issues[0] as { message?: unknown } | undefined)?.message : undefined;
  return `${path}: ${cutWithMarker(typeof why === 'string' ? `key ${why}` : issue.message, MAX_ISSUE_CHARS)}`;
}

/** The most of zod's words for an issue a message carries (its own words are short; a quoted key may not be). */
const MAX_ISSUE_CHARS = 256;

/** A model sent to an endpoint of another kind: the error names the endpoint it is for. */
export function wrongEndpoint(model: string, kind: ModelKind): HttpError {
  return new HttpError('wrong_endpoint', `"${model}" is ${withArticle(kind)} model: send it to POST ${ENDPOINT_OF_KIND[kind]}.`);
}

/** A model a channel serves that the operator has not priced: refused, never served free by accident, the fix named. */
export function notPriced(model: string): HttpError {
  return new HttpError('model_not_priced', `Requested: "${model}". The operator sets it with "model-gateway model price ${model} ..." (or --free to serve it free on purpose).`);
}

/** Why no channel serves a priced model: none enabled, or only channels whose type cannot serve its kind (the operator's to fix). */
function noChannelDetail(model: string, kind: ModelKind, unfit: readonly { name: string; type: string }[]): string {
  if (unfit.length === 0) return `No enabled channel serves "${model}".`;
  const names = unfit.map((c) => `"${c.name}" (${c.type})`).join(', ');
  return `"${model}" is priced as ${withArticle(kind)} model, which its channel ${names} cannot serve: the operator moves it to another channel or prices it as the right kind.`;
}

export function relayed<Body extends { model: string }>(endpoint: Endpoint<Body>): Handler {
  return (gw, ctx) => relay(gw, ctx, endpoint);
}

async function relay<Body extends { model: string }>(gw: Gateway, ctx: RequestContext, endpoint: Endpoint<Body>): Promise<void> {
  const key = await requireKey(gw, ctx);
  // Counted from the moment the key is known: a slow upload holds a slot of its key like any request.
  const slot = takeSlot(gw, key);
  if (slot) await slot;
  try {
    await relayKeyed(gw, ctx, endpoint, key, await readBody(ctx.req, gw.body, ctx.started));
  } finally {
    gw.concurrency.release(key.id);
  }
}

/**
 * A body the gateway made itself (the console's playground) relayed for `key`, admitted already (common.ts
 * admitKey), exactly as a client's body sent with the key's secret: its concurrency, the body checked by the
 * endpoint's schema, the model's permission, the reservation, the relay, the charge and the log row.
 */
export async function relayForKey<Body extends { model: string }>(gw: Gateway, ctx: RequestContext, endpoint: Endpoint<Body>, key: KeyRecord, raw: Buffer): Promise<void> {
  const slot = takeSlot(gw, key);
  if (slot) await slot;
  try {
    await relayKeyed(gw, ctx, endpoint, key, raw);
  } finally {
    gw.concurrency.release(key.id);
  }
}

/**
 * One of the key's concurrent requests, or the refusal (thrown); pair it with gw.concurrency.release(key.id).
 * A promise only when the limit is shared between instances: in one process no await is spent on it.
 */
function takeSlot(gw: Gateway, key: KeyRecord): void | Promise<void> {
  const slot = gw.concurrency.acquire(key.id, key.concurrency);
  return typeof slot === 'object' ? slot.then((s) => slotTaken(key, s)) : slotTaken(key, slot);
}

function slotTaken(key: KeyRecord, slot: boolean | 'unavailable'): void {
  if (slot === 'unavailable') throw new HttpError('store_unavailable', undefined, { 'Retry-After': '5' });
  if (!slot) throw new HttpError('concurrency_limited', `The limit of this key is ${key.concurrency} concurrent request${key.concurrency === 1 ? '' : 's'}.`, { 'Retry-After': '1' });
}

async function relayKeyed<Body extends { model: string }>(gw: Gateway, ctx: RequestContext, endpoint: Endpoint<Body>, key: KeyRecord, raw: Buffer): Promise<void> {
  const { body, bytes } = validBody(raw, endpoint);
  const stream = endpoint.stream(body);
  ctx.log.model = body.model;
  ctx.log.stream = stream;

  const found = gw.catalog.lookup(body.model);
  if (found.kind === 'unknown') throw new HttpError('model_not_found', `Requested: "${body.model}".`);
  if (found.kind === 'unpriced') throw notPriced(body.model);
  if (found.model.kind !== endpoint.kind) throw wrongEndpoint(body.model, found.model.kind);
  if (key.models && !key.models.includes(body.model)) throw new HttpError('model_not_permitted', `Requested: "${body.model}".`);
  if (found.channels.length === 0) throw new HttpError('upstream_unavailable', noChannelDetail(body.model, found.model.kind, found.unfit));
  const model = endpoint.priced?.(body, found.model) ?? found.model;
  // What the format allows but this gateway cannot serve as asked (a message thread): after the model's own refusals.
  const refused = endpoint.refusal?.(body);
  if (refused) throw refused;

  // Fail closed: a charge that could not be made durable is not made at all.
  if (!gw.logs.durable) throw new HttpError('store_unavailable', undefined, { 'Retry-After': '5' });
  // A key with limits of its own holds its reservation against its spending too (what is left of its
  // limit caps the reservation like the balance does), and counts the tokens it settles.
  const state = hasOwnLimits(key) ? await keyState(gw, key) : null;
  const hold = state ? gw.usage.hold(key, state) : null;
  let reservation: Reservation | null = null;
  try {
    const plan = hold
      ? (available: number) => endpoint.plan(Math.min(available, hold.left()), bytes, body, model)
      : (available: number) => endpoint.plan(available, bytes, body, model);
    // Refused by the key's own limit whatever the account's balance, before anything goes upstream.
    const spendRefusal = (): void => {
      if (state && key.spendLimit !== null && endpoint.plan(hold!.left(), bytes, body, model) === null) throw spendLimitReached(gw, key, state);
    };
    spendRefusal();
    const held = gw.leases ? await leased(gw.leases.reserve(key.accountId, plan, hold), spendRefusal) : gw.ledger.reserve(key.accountId, plan, hold);
    if (!held) spendRefusal();
    if (!held && gw.ledger.heldByRequestsInFlight(key.accountId, plan)) throw new HttpError('balance_in_use', undefined, { 'Retry-After': '1' });
    if (!held) throw new HttpError('insufficient_balance');
    reservation = held.reservation;
    // A cap the client did not ask for (or lower than it asked) is said, not hidden: a header and the log row.
    // (Passed to the relay's one writeHead: a setHeader here would cost every answer a header map.)
    const cap = held.plan.maxCompletionTokens;
    const choices = endpoint.choices?.(body) ?? 1;
    const asked = endpoint.askedCap(body);
    const capped = cap !== null && (asked === null || cap < asked);
    if (capped) ctx.log.completionCap = cap;

    // Priced once per usage: the answer tells the cost (usage.cost) before the same usage is settled.
    let priced: { usage: RelayUsage; cost: number } | null = null;
    const chargeOf = (usage: RelayUsage): number => {
      if (priced?.usage !== usage) priced = { usage, cost: costOfUsage(usage, model) };
      return priced.cost;
    };
    let outcome: RelayOutcome;
    try {
      outcome = await gw.relay({
        ...endpoint.operation(body),
        requestId: ctx.id,
        keyId: key.id,
        model: body.model,
        stream,
        clientWantsUsage: endpoint.clientWantsUsage(body),
        maxCompletionTokens: held.plan.maxCompletionTokens,
        choices,
        channels: found.channels,
        anthropicHeaders: anthropicHeadersOf(ctx.req.headers),
        answerHeaders: capped ? [MAX_TOKENS_HEADER, String(cap)] : undefined,
        // The charge, as the answer tells it (usage.cost): what settle will take, never more than was reserved.
        costOf: (usage) => Math.min(chargeOf(usage), held.reservation.amount),
        res: ctx.res,
        signal: ctx.signal,
      });
    } catch (error) {
      gw.ledger.settle(reservation, 0);
      throw error;
    }

    const { usage } = outcome;
    const cost = outcome.kind === 'failed' ? 0 : chargeOf(usage);
    ctx.log.channel = outcome.channel;
    const served = found.channels.find((c) => c.name === outcome.channel);
    ctx.log.upstreamModel = served ? (served.models.get(body.model) ?? body.model) : null;
    if (outcome.attempts) ctx.log.attempts = JSON.stringify(outcome.attempts);
    ctx.log.firstByteMs = outcome.firstByteMs;
    ctx.log.promptTokens = usage.promptTokens;
    ctx.log.completionTokens = usage.completionTokens;
    ctx.log.usageEstimated = usage.estimated;
    if (outcome.kind === 'failed') {
      ctx.log.errorCode = outcome.code;
      const headers: Record<string, string> = {};
      if (outcome.code === 'upstream_rate_limited' || outcome.code === 'upstream_unavailable') headers['Retry-After'] = String(Math.max(1, Math.ceil(outcome.retryAfterSeconds ?? 1)));
      // The upstream's own 4xx about the request (a 422, a 409) keeps its status: the client's to fix, and it says which.
      sendError(ctx.res, ctx.id, outcome.code, outcome.detail, { headers, shape: ctx.errorShape, ...(outcome.upstreamRejection ? { status: outcome.upstreamRejection.status } : {}) });
    } else if (outcome.kind === 'success' && (outcome.cutAtCap || overran(usage, held.plan.maxCompletionTokens, choices))) {
      // Not the client's error (its answer ended at the length limit, or came whole), but the operator's to know: the
      // upstream ignores max_tokens. A stream that ran past its cap by less than the cut's margin is charged its reservation.
      ctx.log.errorCode = 'upstream_ignored_max_tokens';
    } else if (outcome.kind === 'broken') {
      ctx.log.errorCode = outcome.clientAborted ? 'client_aborted' : outcome.code;
      // Gone before anything was answered: the log says so, not the 200 nothing was sent with.
      if (outcome.clientAborted && !ctx.res.headersSent) ctx.res.statusCode = CLIENT_CLOSED_STATUS;
      // Cut by the gateway's own stop (its grace over) before anything was answered: logged as the 503 it is.
      else if (outcome.code === 'gateway_stopping' && !ctx.res.headersSent) ctx.res.statusCode = 503;
    }
    // Settle and log in one synchronous step: the charge goes from reserved to pending to written, never lost.
    ctx.log.cost = gw.ledger.settle(reservation, cost);
    if (state && outcome.kind !== 'failed') gw.usage.tokensUsed(state, usage.promptTokens + usage.completionTokens);
    finishLog(gw.logs, ctx);
  } finally {
    if (reservation && !reservation.released) gw.ledger.settle(reservation, 0);
  }
}

/** An answer reported longer than its cap allowed (every choice at the cap): the upstream did not honour max_tokens. */
function overran(usage: RelayUsage, cap: number | null, choices: number): boolean {
  return cap !== null && !usage.estimated && usage.completionTokens > cap * choices;
}

/**
 * The client's JSON itself, once zod says it fits: zod's copy would put keys in schema order, and a
 * passthrough must send the body as it came (thinking signatures, prompt-cache prefixes). A function
 * of its own so that neither the raw text nor zod's copy stays referenced by the request's suspended
 * frame while a stream is open (with long prompts, that was two more copies per open stream).
 */
function validBody<Body extends { model: string }>(raw: Buffer, endpoint: Endpoint<Body>): { body: Body; bytes: number } {
  const json = parseJsonBody(raw);
  const parsed = endpoint.schema.safeParse(json);
  if (!parsed.success) throw new HttpError('invalid_request', describeIssue(parsed.error, endpoint.format));
  return { body: json as Body, bytes: raw.length };
}

/** The key's spending limit is reached: the limit, what it spent (and holds in flight), and when it starts again. */
function spendLimitReached(gw: Gateway, key: KeyRecord, s: KeyState): HttpError {
  const resets = periodEnd(key.spendPeriod, gw.usage.now());
  const per = key.spendPeriod === 'total' ? 'in total' : `per UTC ${key.spendPeriod}`;
  const held = s.reserved > 0 ? `, and its requests in flight hold ${formatMicroUsd(s.reserved)}` : '';
  // Refused before the limit is quite spent: what is left cannot pay for this request's least (its prompt and a short answer).
  const left = (key.spendLimit ?? 0) - Math.max(0, s.spent) - s.reserved;
  const short = left > 0 ? ` What is left, ${formatMicroUsd(left)}, cannot pay for the least this request may cost (its prompt and a short answer).` : '';
  return new HttpError(
    'key_spend_limit_reached',
    `Its limit is ${formatMicroUsd(key.spendLimit ?? 0)} ${per}; it has spent ${formatMicroUsd(Math.max(0, s.spent))}${held}.${short} ${resets === null ? 'It is a total limit: it never resets.' : `The limit resets at ${new Date(resets).toISOString()}.`}`,
  );
}

/** A reservation from a balance lease (several instances on PostgreSQL), or the refusal it ends in (the key's own first). */
async function leased(outcome: ReturnType<Leases['reserve']>, keyRefusal: () => void): Promise<Held | null> {
  const result = await outcome;
  if (typeof result === 'string') keyRefusal();
  if (result === 'in_use') throw new HttpError('balance_in_use', undefined, { 'Retry-After': '1' });
  if (result === 'unavailable') throw new HttpError('store_unavailable', undefined, { 'Retry-After': '5' });
  return result === 'insufficient' ? null : result;
}

const NO_HEADERS: Readonly<Record<string, string>> = {};

/** The client's anthropic-version and anthropic-beta, to forward unchanged to an anthropic channel. */
function anthropicHeadersOf(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  const version = headers['anthropic-version'];
  const beta = headers['anthropic-beta'];
  if (version === undefined && beta === undefined) return NO_HEADERS;
  const out: Record<string, string> = {};
  if (typeof version === 'string') out['anthropic-version'] = version;
  if (beta !== undefined) out['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
  return out;
}

/** Images are priced per image, everything else per token: cache reads and writes at their own prices where set. */
export function costOfUsage(usage: RelayUsage, model: ModelRecord): number {
  if (model.kind === 'image') return (usage.images ?? 0) * (model.imagePrice ?? 0);
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  return costOfTokens([
    [Math.max(0, usage.promptTokens - read - write), model.inputPrice],
    [read, model.cachedInputPrice ?? model.inputPrice],
    [write, model.cacheWritePrice ?? model.inputPrice],
    [usage.completionTokens, model.outputPrice],
  ]);
}
