/**
 * The admin access tokens of the PostgreSQL store (migration 10), apart from postgres.ts so that file
 * keeps to one idea; the same behaviour as SQLite's (sqliteAdminTokens.ts). Making and revoking are
 * admin actions, each with its audit row in one transaction; nothing is bumped or notified for them (the
 * instances' snapshot holds no tokens: each request reads its token from the database).
 */
import { auditRow } from './audit.ts';
import { appendAudit } from './postgresAudit.ts';
import { FOREIGN_KEY_VIOLATION, type Query, type Transaction, UNIQUE_VIOLATION } from './postgresQuery.ts';
import { nameTaken, noSuchToken } from './tokenTypes.ts';
import { toAdminToken } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { AdminTokenRecord, AdminTokenStore, AuditEntry, NewAdminToken } from './types.ts';


export class PostgresAdminTokens implements AdminTokenStore {
  readonly #tx: Transaction;
  readonly #query: Query;

  constructor(tx: Transaction, query: Query) {
    this.#tx = tx;
    this.#query = query;
  }

  async create(t: NewAdminToken, audit?: AuditEntry): Promise<AdminTokenRecord> {
    const row = audit ? auditRow(audit) : null; // checked (no secret) before anything is written
    try {
      return await this.#tx(async (query) => {
        const { rows } = await query('INSERT INTO admin_tokens (name, token_hash, token_prefix, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
          [t.name, t.hash, t.prefix, t.createdBy, Date.now(), t.expiresAt]);
        if (row) await appendAudit(query, row);
        return toAdminToken(rows[0]!);
      });
    } catch (error) {
      const { code, constraint } = error as { code?: unknown; constraint?: unknown };
      if (code === UNIQUE_VIOLATION) throw constraint === 'admin_tokens_live_name' ? nameTaken(t.name) : new StoreError('conflict', 'an admin access token with this hash exists already');
      if (code === FOREIGN_KEY_VIOLATION) throw new StoreError('not_found', 'no such user');
      throw error;
    }
  }

  async list(): Promise<AdminTokenRecord[]> {
    return (await this.#query('SELECT * FROM admin_tokens ORDER BY id')).rows.map(toAdminToken);
  }

  async findByHash(hash: string): Promise<AdminTokenRecord | null> {
    const row = (await this.#query('SELECT * FROM admin_tokens WHERE token_hash = $1', [hash])).rows[0];
    return row ? toAdminToken(row) : null;
  }

  async revoke(id: number, at: number, audit?: AuditEntry): Promise<AdminTokenRecord> {
    const row = audit ? auditRow(audit) : null;
    return this.#tx(async (query) => {
      const revoked = (await query('UPDATE admin_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING *', [at, id])).rows[0];
      if (revoked) {
        if (row) await appendAudit(query, row);
        return toAdminToken(revoked);
      }
      const found = (await query('SELECT * FROM admin_tokens WHERE id = $1', [id])).rows[0];
      if (!found) throw noSuchToken(id);
      return toAdminToken(found);
    });
  }

  async touch(id: number, at: number): Promise<void> {
    await this.#query('UPDATE admin_tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)', [at, id]);
  }
}
