/**
 * The PostgreSQL store's audit log (migration 7) and the one rule of its user changes that reads other
 * rows: a change that would leave no enabled admin is refused. Apart from postgres.ts so that file
 * keeps to one idea; the writes run inside the caller's transaction (with the change they record).
 */
import { auditRow, auditSql, toAudit } from './audit.ts';
import type { Query } from './postgresQuery.ts';
import { lastAdmin } from './types.ts';
import type { AuditFilter, AuditRecord, UserChange } from './types.ts';

export async function appendAudit(query: Query, row: ReturnType<typeof auditRow>): Promise<AuditRecord> {
  const { rows } = await query('INSERT INTO audit_log (time, actor, action, target, details, via_token) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [Date.now(), row.actor, row.action, row.target, row.details, row.viaToken]);
  return toAudit(rows[0]!);
}

export async function listAudit(query: Query, filter: AuditFilter): Promise<AuditRecord[]> {
  const { sql, params } = auditSql(filter, (n) => `$${n}`);
  return (await query(sql, params)).rows.map(toAudit);
}

/**
 * With `keepAnAdmin`: refuses when `name` is the only enabled admin and the change takes away `admin` or
 * `enabled`. The enabled admins' rows (and the target's) are locked first, so two admins demoting each
 * other at once cannot both pass: the second sees the first's change once it commits.
 */
export async function keepAnAdmin(query: Query, name: string, change: { admin?: boolean; status?: string }, options: UserChange | undefined): Promise<void> {
  if (!options?.keepAnAdmin || (change.admin !== false && change.status !== 'disabled')) return;
  const { rows } = await query("SELECT name, admin AND status = 'enabled' AS counts FROM users WHERE (admin AND status = 'enabled') OR name = $1 ORDER BY id FOR UPDATE", [name]);
  const target = rows.find((r) => r.name === name);
  if (!target || !target.counts) return;
  if (!rows.some((r) => r.name !== name && r.counts)) throw lastAdmin(name);
}
