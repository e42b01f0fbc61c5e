/**
 * Device sign-in, the person's side (RFC 8628, contract 4.11): for a signed-in user (on the console's
 * /device page) POST /api/console/device/{lookup,approve,deny} {user_code}. Lookup says which client asks and
 * which models the user may narrow the key to; approve (optionally with `models`) or deny answers it,
 * once: a code already answered, by this user or another, is not found any more. The same CSRF rules
 * as every console change (api.ts). Wrong codes are throttled per user and per address, like
 * sign-ins, so a code cannot be found by guessing.
 */
import { normalizeUserCode } from '../accounts/userCode.ts';
import { HttpError } from '../http/errors.ts';
import type { PendingGrant } from '../accounts/deviceGrants.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { refuseUnknownModels } from './consoleCatalog.ts';
import { throttled } from './consoleSession.ts';
import { sourceOf, type SignedIn } from './session.ts';

/** The waiting request under the body's code, or 404 user_code_invalid (counted by the throttle). */
function pendingOf(gw: Gateway, ctx: RequestContext, signedIn: SignedIn, typed: string): PendingGrant {
  const source = sourceOf(ctx);
  const throttle = gw.console.userCodeThrottle;
  const wait = throttle.wait(signedIn.user.name, source);
  if (wait > 0) throw throttled('user_code_throttled', wait);
  const code = normalizeUserCode(typed);
  const pending = code === null ? null : gw.console.devices.pending(code);
  if (!pending) {
    throttle.failed(signedIn.user.name, source);
    throw new HttpError('user_code_invalid');
  }
  return pending;
}

export const lookup: ApiHandler<'lookUpDevice'> = (gw, ctx, { caller, body }) => {
  const pending = pendingOf(gw, ctx, caller, body.user_code);
  return {
    body: {
      object: 'console.device_request', user_code: pending.userCode, client_name: pending.clientName, created_at: new Date(pending.createdAt).toISOString(),
      expires_at: new Date(pending.expiresAt).toISOString(), account: gw.catalog.account(caller.user.accountId)?.name ?? null, models: gw.catalog.servable().map((m) => m.name),
    },
  };
};

export const approve: ApiHandler<'approveDevice'> = (gw, ctx, { caller, body }) => {
  refuseUnknownModels(gw, body.models);
  const pending = pendingOf(gw, ctx, caller, body.user_code);
  const models = body.models && body.models.length > 0 ? body.models : null;
  if (!gw.console.devices.decide(pending.userCode, { approved: true, userId: caller.user.id, accountId: caller.user.accountId, models })) {
    throw new HttpError('user_code_invalid');
  }
  return { logged: true, body: { object: 'console.device_request', user_code: pending.userCode, client_name: pending.clientName, approved: true, models } };
};

export const deny: ApiHandler<'denyDevice'> = (gw, ctx, { caller, body }) => {
  const pending = pendingOf(gw, ctx, caller, body.user_code);
  if (!gw.console.devices.decide(pending.userCode, { approved: false })) throw new HttpError('user_code_invalid');
  return { logged: true, body: { object: 'console.device_request', user_code: pending.userCode, client_name: pending.clientName, approved: false } };
};
