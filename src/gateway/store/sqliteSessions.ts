/**
 * The sessions table of the SQLite store (migration 12), apart from sqlite.ts so that file keeps to
 * one idea. Session writes do not count as changes of the cached snapshot: the request path's catalog
 * holds no sessions, so a sign-in must not make it reload.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StoreError } from './types.ts';
import type { NewSession, SessionRecord } from './types.ts';
import { toSession, type Row } from './sqlRows.ts';

export class SqliteSessions {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The session, and the user's latest sign-in (users.last_sign_in_at): in the caller's transaction. */
  create(s: NewSession): SessionRecord {
    try {
      const session = toSession(this.#db.prepare('INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING *')
        .get(s.idHash, s.userId, s.createdAt, s.createdAt, s.expiresAt) as Row);
      this.#db.prepare('UPDATE users SET last_sign_in_at = ? WHERE id = ?').run(s.createdAt, s.userId);
      return session;
    } catch (error) {
      if (error instanceof Error && /FOREIGN KEY constraint failed/i.test(error.message)) throw new StoreError('not_found', 'no such user');
      if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message)) throw new StoreError('conflict', 'a session with this id exists already');
      throw error;
    }
  }

  find(idHash: string): SessionRecord | null {
    const row = this.#db.prepare('SELECT * FROM sessions WHERE id_hash = ?').get(idHash) as Row | undefined;
    return row ? toSession(row) : null;
  }

  touch(idHash: string, at: number): void {
    this.#db.prepare('UPDATE sessions SET last_seen_at = MAX(last_seen_at, ?) WHERE id_hash = ?').run(at, idHash);
  }

  revoke(idHash: string, at: number): void {
    this.#db.prepare('UPDATE sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL').run(at, idHash);
  }

  /** Every live session of the user named `userName` revoked (password changed, user disabled). */
  revokeUser(userName: string, at: number): void {
    this.#db.prepare('UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE name = ?)').run(at, userName);
  }

  deleteEnded(now: number, idleSince: number): number {
    return Number(this.#db.prepare('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at < ? OR revoked_at IS NOT NULL').run(now, idleSince).changes);
  }
}
