/**
 * Invitation codes for admins (issue 10): POST /api/console/admin/invitations {count, batch?, expires_at?}
 * makes a batch and answers its codes, the only time they are shown (the store keeps their hashes); GET
 * lists them (never a code: id, batch, status, who made it, who signed up with it, dates), filtered by
 * batch and status, newest first in pages; POST /api/console/admin/invitations/disable {id} | {batch}
 * stops the ones not yet used. Made and disabled by accounts/invitations.ts, each with its audit row.
 */
import { DEFAULT_PAGE, type InvitationView } from '../../contract/index.ts';
import { namesOnPage, type CodeNames } from '../accounts/codes.ts';
import { createInvitationBatch, disableUnusedInvitations } from '../accounts/invitations.ts';
import { HttpError } from '../http/errors.ts';
import { codeStatus } from '../store/codeQuery.ts';
import { StoreError, type CodeFilter, type InvitationRecord } from '../store/types.ts';
import type { ApiHandler } from './api.ts';
import { isoTime } from './consoleCatalog.ts';

type Names = CodeNames;

function invitationView(c: InvitationRecord, now: number, names: Names): InvitationView {
  return {
    id: c.id, batch: c.batch, status: codeStatus(c, now), created_at: isoTime(c.createdAt)!, created_by: c.createdBy === null ? null : (names.users.get(c.createdBy) ?? null),
    expires_at: isoTime(c.expiresAt), used_at: isoTime(c.redeemedAt), used_by: c.redeemedUserId === null ? null : (names.users.get(c.redeemedUserId) ?? null),
  };
}

/** POST /api/console/admin/invitations: 201 with the batch's codes, recorded in the audit log (invitation.create, never the codes). */
export const adminCreateInvitations: ApiHandler<'createInvitations'> = async (gw, _ctx, { caller, body }) => {
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; the codes would be born expired.');
  const made = await createInvitationBatch(gw.store, { count: body.count, batch: body.batch ?? null, expiresAt, createdBy: caller.user.id, acting: caller.acting });
  return {
    headers: { 'Cache-Control': 'no-store' },
    body: { object: 'console.invitation_batch', batch: body.batch ?? null, expires_at: isoTime(expiresAt), codes: made.map((m) => ({ id: m.record.id, code: m.code })) },
  };
};

/** GET /api/console/admin/invitations?batch=&status=&limit=&before=: never a code. */
export const adminInvitations: ApiHandler<'listInvitations'> = async (gw, _ctx, { query }) => {
  const limit = query.limit ?? DEFAULT_PAGE;
  const now = Date.now();
  const filter: CodeFilter = {
    now, limit, ...(query.batch ? { batch: query.batch } : {}), ...(query.status ? { status: query.status } : {}), ...(query.before !== undefined ? { beforeId: query.before } : {}),
  };
  const rows = await gw.store.signUps.listInvitations(filter);
  const names = await namesOnPage(gw.store, () => undefined, rows);
  return { body: { object: 'list', data: rows.map((c) => invitationView(c, now, names)), next_before: rows.length === limit ? rows.at(-1)!.id : null } };
};

/** POST /api/console/admin/invitations/disable {id} | {batch}: recorded in the audit log (invitation.disable). */
export const adminDisableInvitations: ApiHandler<'disableInvitations'> = async (gw, _ctx, { caller, body: target }) => {
  let disabled: number;
  try {
    disabled = await disableUnusedInvitations(gw.store, target, caller.acting);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'not_found') throw new HttpError('invitation_not_found', `Asked for ${'id' in target ? `id ${target.id}` : `batch "${target.batch}"`}.`);
    throw error;
  }
  return { body: { object: 'console.invitations_disabled', ...target, disabled } };
};
