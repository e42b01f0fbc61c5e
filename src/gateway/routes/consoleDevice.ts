/**
 * Device sign-in, the person's side (RFC 8628, contract 4.11): the /device page, and for a signed-in
 * user POST /api/console/device/{lookup,approve,deny} {user_code}. Lookup says which client asks and
 * which models the user may narrow the key to; approve (optionally with `models`) or deny answers it,
 * once: a code already answered, by this user or another, is not found any more. The same CSRF rules
 * as every console change (session.ts). Wrong codes are throttled per user and per address, like
 * sign-ins, so a code cannot be found by guessing.
 */
import { z } from 'zod';
import { normalizeUserCode } from '../accounts/userCode.ts';
import { devicePage } from '../console/devicePage.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import type { PendingGrant } from '../accounts/deviceGrants.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { Handler } from './common.ts';
import { sendPage } from './console.ts';
import { parseBody } from './consoleSchemas.ts';
import { readConsoleJson, requireSession, sourceOf, type SignedIn } from './session.ts';

const UserCodeBody = z.strictObject({ user_code: z.string().min(1).max(32) });
const ApproveBody = z.strictObject({
  user_code: z.string().min(1).max(32),
  /** Narrow the key to these models; absent or null: every model the account may use. */
  models: z.array(z.string().min(1).max(256)).max(1000).nullable().optional(),
});

export const approvalPage: Handler = (_gw, ctx) => sendPage(ctx, devicePage());

/** The waiting request under the body's code, or 404 user_code_invalid (counted by the throttle). */
function pendingOf(gw: Gateway, ctx: RequestContext, signedIn: SignedIn, typed: string): PendingGrant {
  const source = sourceOf(ctx);
  const throttle = gw.console.userCodeThrottle;
  const wait = throttle.wait(signedIn.user.name, source);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new HttpError('user_code_throttled', `Try again in ${seconds} s.`, { 'Retry-After': String(seconds) });
  }
  const code = normalizeUserCode(typed);
  const pending = code === null ? null : gw.console.devices.pending(code);
  if (!pending) {
    throttle.failed(signedIn.user.name, source);
    throw new HttpError('user_code_invalid');
  }
  return pending;
}

function requestView(gw: Gateway, signedIn: SignedIn, pending: PendingGrant) {
  return {
    object: 'console.device_request',
    user_code: pending.userCode,
    client_name: pending.clientName,
    created_at: new Date(pending.createdAt).toISOString(),
    expires_at: new Date(pending.expiresAt).toISOString(),
    account: gw.catalog.account(signedIn.user.accountId)?.name ?? null,
    models: gw.catalog.servable().map((m) => m.name),
  };
}

export const lookup: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  const { user_code } = parseBody(UserCodeBody, await readConsoleJson(gw, ctx));
  const pending = pendingOf(gw, ctx, signedIn, user_code);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, requestView(gw, signedIn, pending));
};

export const approve: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  const body = parseBody(ApproveBody, await readConsoleJson(gw, ctx));
  const unknown = (body.models ?? []).filter((m) => gw.catalog.lookup(m).kind === 'unknown');
  if (unknown.length > 0) throw new HttpError('invalid_request', `models: no model named ${unknown.map((m) => JSON.stringify(m)).join(', ')}.`);
  const pending = pendingOf(gw, ctx, signedIn, body.user_code);
  const models = body.models && body.models.length > 0 ? body.models : null;
  if (!gw.console.devices.decide(pending.userCode, { approved: true, userId: signedIn.user.id, accountId: signedIn.user.accountId, models })) {
    throw new HttpError('user_code_invalid');
  }
  sendJson(ctx.res, ctx.id, 200, { object: 'console.device_request', user_code: pending.userCode, client_name: pending.clientName, approved: true, models });
};

export const deny: Handler = async (gw, ctx) => {
  const signedIn = await requireSession(gw, ctx);
  const { user_code } = parseBody(UserCodeBody, await readConsoleJson(gw, ctx));
  const pending = pendingOf(gw, ctx, signedIn, user_code);
  if (!gw.console.devices.decide(pending.userCode, { approved: false })) throw new HttpError('user_code_invalid');
  sendJson(ctx.res, ctx.id, 200, { object: 'console.device_request', user_code: pending.userCode, client_name: pending.clientName, approved: false });
};
