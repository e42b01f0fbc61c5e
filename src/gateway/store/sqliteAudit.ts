/**
 * The SQLite store's audit log (migration 15) and the one rule of its user changes that reads other
 * rows: a change that would leave no enabled admin is refused. Apart from sqlite.ts so that file keeps
 * to one idea; every call here runs inside the caller's transaction.
 */
import type { DatabaseSync } from 'node:sqlite';
import { auditRow, auditSql, toAudit } from './audit.ts';
import type { Row } from './sqlRows.ts';
import { lastAdmin } from './types.ts';
import type { AuditEntry, AuditFilter, AuditRecord, UserChange } from './types.ts';

export class SqliteAudit {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Checked (auditRow) before the caller changes anything: a refused entry must refuse the change too. */
  static check(entry: AuditEntry | undefined): ReturnType<typeof auditRow> | null {
    return entry ? auditRow(entry) : null;
  }

  append(row: ReturnType<typeof auditRow>): AuditRecord {
    return toAudit(this.#db.prepare('INSERT INTO audit_log (time, actor, action, target, details, via_token) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
      .get(Date.now(), row.actor, row.action, row.target, row.details, row.viaToken) as Row);
  }

  list(filter: AuditFilter): AuditRecord[] {
    const { sql, params } = auditSql(filter, () => '?');
    return (this.#db.prepare(sql).all(...params) as Row[]).map(toAudit);
  }

  /** With `keepAnAdmin`: refuses when `name` is the only enabled admin and the change takes away `admin` or `enabled`. */
  keepAnAdmin(name: string, change: { admin?: boolean; status?: string }, options: UserChange | undefined): void {
    if (!options?.keepAnAdmin || (change.admin !== false && change.status !== 'disabled')) return;
    const target = this.#db.prepare("SELECT admin = 1 AND status = 'enabled' AS counts FROM users WHERE name = ?").get(name) as Row | undefined;
    if (!target || !Number(target.counts)) return;
    const others = this.#db.prepare("SELECT count(*) AS n FROM users WHERE admin = 1 AND status = 'enabled' AND name <> ?").get(name) as Row;
    if (Number(others.n) === 0) throw lastAdmin(name);
  }
}
