/**
 * The PostgreSQL store's API keys: made with their limits, listed, changed by id (status, secret,
 * limits), deleted with their per-day usage. Every change is an admin write of postgres.ts (its audit
 * row, the change bump and NOTIFY in the same transaction), handed in as `admin`.
 */
import { keyInsert, keyLimitsUpdate } from './keySql.ts';
import { KEYS_WITH_USERS } from './keyUsers.ts';
import type { KeyLimits } from './keySettings.ts';
import type { Query } from './postgresQuery.ts';
import { toKey, type Row } from './sqlRows.ts';
import { StoreError, type AuditEntry, type KeyRecord, type NewKey, type Status } from './types.ts';

/** How an admin write is told apart: the words of its conflict, and its audit row. */
export interface AdminWrite {
  readonly conflict?: string;
  readonly audit?: AuditEntry | undefined;
}

/** postgres.ts's admin write: `work` in a transaction with its audit row and the change notification. */
export type AdminWriter = <T>(what: string, name: string, work: (query: Query) => Promise<T>, options?: AdminWrite) => Promise<T>;

export class PostgresKeys {
  readonly #admin: AdminWriter;
  readonly #query: (sql: string, params?: unknown[]) => Promise<{ rows: Row[] }>;

  constructor(admin: AdminWriter, query: (sql: string, params?: unknown[]) => Promise<{ rows: Row[] }>) {
    this.#admin = admin;
    this.#query = query;
  }

  async create(key: NewKey): Promise<KeyRecord> {
    const { sql, values } = keyInsert(key, (i) => `$${i}`);
    return toKey(await this.#admin('key', key.name, async (query) => (await query(sql, values)).rows[0]!));
  }

  async list(accountId?: number): Promise<KeyRecord[]> {
    const rows = accountId === undefined ? await this.#query(`${KEYS_WITH_USERS} ORDER BY k.id`) : await this.#query(`${KEYS_WITH_USERS} WHERE k.account_id = $1 ORDER BY k.id`, [accountId]);
    return rows.rows.map(toKey);
  }

  /** An UPDATE of the key `id` (the statement's last parameter); no such key is not found. */
  async #update(id: number, sql: string, params: unknown[], options: { conflict?: string; audit?: AuditEntry | undefined } = {}): Promise<void> {
    await this.#admin('key', String(id), async (query) => {
      if ((await query(sql, [...params, id])).rowCount === 0) throw new StoreError('not_found', `no key with id ${id}`);
    }, options);
  }

  async setStatus(id: number, status: Status): Promise<void> {
    await this.#update(id, 'UPDATE api_keys SET status = $1 WHERE id = $2', [status]);
  }

  async setSecret(id: number, hash: string, prefix: string): Promise<void> {
    await this.#update(id, 'UPDATE api_keys SET key_hash = $1, key_prefix = $2 WHERE id = $3', [hash, prefix], { conflict: 'a key with this secret exists already' });
  }

  async setLimits(id: number, limits: KeyLimits, audit?: AuditEntry): Promise<void> {
    const { sql, values } = keyLimitsUpdate(limits, (i) => `$${i}`);
    await this.#update(id, sql, values, { audit });
  }

  async delete(id: number): Promise<boolean> {
    return this.#admin('key', String(id), async (query) => {
      await query('DELETE FROM key_usage WHERE key_id = $1', [id]);
      return ((await query('DELETE FROM api_keys WHERE id = $1', [id])).rowCount ?? 0) > 0;
    });
  }
}
