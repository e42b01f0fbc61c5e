/**
 * GET /api/console/admin/audit (issue 10, contract 4.10 "Admins"): the audit log of admin actions, for
 * admins only, newest first: who (a console user, or `cli` for the command line) did what to which,
 * with its details (never a secret). Filters `actor` and `action` (one of AUDIT_ACTIONS); pages of
 * `limit` (1..200, default 50) continued with `before` (the answer's `next_before`). Reading is not logged.
 */
import { isAuditAction } from '../../contract/index.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import type { AuditRecord } from '../store/types.ts';
import type { Handler } from './common.ts';
import { consoleQuery, pageLimit, positiveInt, textParam } from './consoleQuery.ts';
import { requireAdmin } from './session.ts';

function rowView(r: AuditRecord) {
  return { id: r.id, time: new Date(r.time).toISOString(), actor: r.actor, action: r.action, target: r.target, details: r.details };
}

export const auditLog: Handler = async (gw, ctx) => {
  await requireAdmin(gw, ctx);
  const params = consoleQuery(ctx, ['actor', 'action', 'limit', 'before']);
  const actor = textParam(params, 'actor', 64);
  const action = params.get('action') ?? '';
  if (action !== '' && !isAuditAction(action)) throw new HttpError('invalid_request', `action: no audit action is called ${JSON.stringify(action.slice(0, 64))}.`);
  const limit = pageLimit(params);
  const before = positiveInt(params, 'before', Number.MAX_SAFE_INTEGER);
  const rows = await gw.store.listAudit({
    limit, ...(actor !== '' ? { actor } : {}), ...(action !== '' && isAuditAction(action) ? { action } : {}), ...(before !== undefined ? { beforeId: before } : {}),
  });
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', limit, data: rows.map(rowView), next_before: rows.length === limit ? rows.at(-1)!.id : null });
};
