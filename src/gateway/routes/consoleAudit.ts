/**
 * GET /api/console/admin/audit (issue 10, contract 4.10 "Admins"): the audit log of admin actions, for
 * admins only, newest first: who (a console user, or `cli` for the command line) did what to which,
 * through which admin access token when a script did, with its details (never a secret). Filters `actor`
 * and `action` (one of AUDIT_ACTIONS); pages of `limit` (1..200, default 50) continued with `before` (the
 * answer's `next_before`). Reading is not logged.
 */
import { DEFAULT_PAGE } from '../../contract/index.ts';
import type { AuditRecord } from '../store/types.ts';
import type { ApiHandler } from './api.ts';

function rowView(r: AuditRecord) {
  return { id: r.id, time: new Date(r.time).toISOString(), actor: r.actor, action: r.action, target: r.target, details: r.details, via_token: r.viaToken };
}

export const auditLog: ApiHandler<'listAudit'> = async (gw, _ctx, { query }) => {
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = await gw.store.listAudit({
    limit, ...(query.actor ? { actor: query.actor } : {}), ...(query.action ? { action: query.action } : {}), ...(query.before !== undefined ? { beforeId: query.before } : {}),
  });
  return { body: { object: 'list', limit, data: rows.map(rowView), next_before: rows.length === limit ? rows.at(-1)!.id : null } };
};
