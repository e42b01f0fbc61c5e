/** The admin access tokens of the memory store: the same behaviour as the SQL stores' (sqliteAdminTokens.ts). */
import { nameTaken, noSuchToken } from './tokenTypes.ts';
import { StoreError } from './types.ts';
import type { AdminTokenRecord, AdminTokenStore, AuditEntry, NewAdminToken } from './types.ts';

/** The memory store's hooks: a new id, a change with its audit row (all or nothing), whether a user id exists. */
export interface MemoryHooks {
  id(): number;
  audited<T>(audit: AuditEntry | undefined, change: () => T): T;
  userExists(id: number): boolean;
}

export class MemoryAdminTokens implements AdminTokenStore {
  #tokens: AdminTokenRecord[] = [];
  readonly #hooks: MemoryHooks;

  constructor(hooks: MemoryHooks) {
    this.#hooks = hooks;
  }

  async create(t: NewAdminToken, audit?: AuditEntry): Promise<AdminTokenRecord> {
    return this.#hooks.audited(audit, () => {
      if (!this.#hooks.userExists(t.createdBy)) throw new StoreError('not_found', 'no such user');
      if (this.#tokens.some((k) => k.name === t.name && k.revokedAt === null)) throw nameTaken(t.name);
      if (this.#tokens.some((k) => k.hash === t.hash)) throw new StoreError('conflict', 'an admin access token with this hash exists already');
      const made: AdminTokenRecord = { ...t, id: this.#hooks.id(), createdAt: Date.now(), revokedAt: null, lastUsedAt: null };
      this.#tokens.push(made);
      return made;
    });
  }

  async list(): Promise<AdminTokenRecord[]> {
    return [...this.#tokens];
  }

  async findByHash(hash: string): Promise<AdminTokenRecord | null> {
    return this.#tokens.find((k) => k.hash === hash) ?? null;
  }

  async revoke(id: number, at: number, audit?: AuditEntry): Promise<AdminTokenRecord> {
    const index = this.#tokens.findIndex((k) => k.id === id);
    if (index < 0) throw noSuchToken(id);
    if (this.#tokens[index]!.revokedAt !== null) return this.#tokens[index]!;
    return this.#hooks.audited(audit, () => (this.#tokens[index] = { ...this.#tokens[index]!, revokedAt: at }));
  }

  async touch(id: number, at: number): Promise<void> {
    const index = this.#tokens.findIndex((k) => k.id === id);
    if (index >= 0 && (this.#tokens[index]!.lastUsedAt ?? -Infinity) < at) this.#tokens[index] = { ...this.#tokens[index]!, lastUsedAt: at };
  }
}
