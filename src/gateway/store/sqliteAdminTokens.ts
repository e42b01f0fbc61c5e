/**
 * The admin access tokens of the SQLite store (migration 18), apart from sqlite.ts so that file keeps to
 * one idea. Making and revoking a token are admin actions: each is written with its audit row in one
 * IMMEDIATE transaction, and a revocation that finds the token revoked already writes nothing. Token
 * writes are not changes of the cached snapshot (the request path holds no tokens).
 */
import type { DatabaseSync } from 'node:sqlite';
import { SqliteAudit } from './sqliteAudit.ts';
import { toAdminToken, type Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import { nameTaken, noSuchToken } from './tokenTypes.ts';
import type { AdminTokenRecord, AdminTokenStore, AuditEntry, NewAdminToken } from './types.ts';

export class SqliteAdminTokens implements AdminTokenStore {
  readonly #db: DatabaseSync;
  readonly #tx: <T>(work: () => T) => T;
  readonly #audit: () => SqliteAudit;

  constructor(db: DatabaseSync, tx: <T>(work: () => T) => T, audit: () => SqliteAudit) {
    this.#db = db;
    this.#tx = tx;
    this.#audit = audit;
  }

  async create(t: NewAdminToken, audit?: AuditEntry): Promise<AdminTokenRecord> {
    const row = SqliteAudit.check(audit);
    try {
      return this.#tx(() => {
        const made = toAdminToken(this.#db.prepare('INSERT INTO admin_tokens (name, token_hash, token_prefix, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
          .get(t.name, t.hash, t.prefix, t.createdBy, Date.now(), t.expiresAt) as Row);
        if (row) this.#audit().append(row);
        return made;
      });
    } catch (error) {
      if (error instanceof Error && /UNIQUE constraint failed: admin_tokens\.name/i.test(error.message)) throw nameTaken(t.name);
      if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message)) throw new StoreError('conflict', 'an admin access token with this hash exists already');
      if (error instanceof Error && /FOREIGN KEY constraint failed/i.test(error.message)) throw new StoreError('not_found', 'no such user');
      throw error;
    }
  }

  async list(): Promise<AdminTokenRecord[]> {
    return (this.#db.prepare('SELECT * FROM admin_tokens ORDER BY id').all() as Row[]).map(toAdminToken);
  }

  async findByHash(hash: string): Promise<AdminTokenRecord | null> {
    const row = this.#db.prepare('SELECT * FROM admin_tokens WHERE token_hash = ?').get(hash) as Row | undefined;
    return row ? toAdminToken(row) : null;
  }

  async revoke(id: number, at: number, audit?: AuditEntry): Promise<AdminTokenRecord> {
    const row = SqliteAudit.check(audit);
    return this.#tx(() => {
      const revoked = this.#db.prepare('UPDATE admin_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING *').get(at, id) as Row | undefined;
      if (revoked) {
        if (row) this.#audit().append(row);
        return toAdminToken(revoked);
      }
      const found = this.#db.prepare('SELECT * FROM admin_tokens WHERE id = ?').get(id) as Row | undefined;
      if (!found) throw noSuchToken(id);
      return toAdminToken(found);
    });
  }

  async touch(id: number, at: number): Promise<void> {
    this.#db.prepare('UPDATE admin_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)').run(at, id, at);
  }
}
