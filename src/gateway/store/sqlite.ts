/**
 * The Store on Node's built-in SQLite (`node:sqlite`, DatabaseSync), one file per data folder,
 * WAL mode so the CLI and a running server share it. `node:sqlite` is loaded lazily so the
 * bundle still loads on runtimes without it (the caller can then fall back to memory).
 */
import { backupSqlite } from './sqliteBackup.ts';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { SqlRequestLogs } from './requestLogs.ts';
import { LOG_SELECT } from './logQuery.ts';
import { pruneSqliteLogs } from './sqlitePrune.ts';
import { migrateSqlite, openDatabaseFile, openDatabaseFileReadOnly, requireCurrentSchema, sealPlainChannelSecrets, unusableFile } from './sqliteOpen.ts';
import { assertAmount, overCeiling } from './amounts.ts';
import { StoreError } from './types.ts';
import type {
  AccountRecord, AuditEntry, AuditFilter, AuditRecord, ChannelChanges, ChannelRecord, CodeFilter, CodeTarget, KeyRecord, ModelRecord, NewChannel, NewKey, NewRedemptionCode,
  NewSession, NewUser, Redeemer, Redemption, RedemptionCodeRecord, SessionRecord, Snapshot, Status, Store, StoredLog, UserChange, UserRecord, WriteBatch,
} from './types.ts';
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { channelUpdate, modelUpsert, toAccount, toChannel, toKey, toLog, toModel, toUser, type Row } from './sqlRows.ts';
import { sqliteSnapshot } from './writtenSince.ts';
import { toUserWithAccount, userPageQuery, type UserPage, type UserWithAccount } from './userPages.ts';
import { toTotals, totalsQuery, type GatewayTotals } from './totals.ts';
import { isSealed, type SecretBox } from './secretBox.ts';
import { BatchWriter, overdrawnOr } from './sqliteBatch.ts';
import { SqliteSessions } from './sqliteSessions.ts';
import { SqliteAudit } from './sqliteAudit.ts';
import { SqliteCodes } from './sqliteCodes.ts';
import { SqliteSettings } from './sqliteSettings.ts';
import { SqliteSignUps } from './sqliteSignUps.ts';
import { SqliteAdminTokens } from './sqliteAdminTokens.ts';
import { SqliteChanges } from './sqliteChanges.ts';
import type { KeyLimits, KeyUsageTotals, KeyUsageQuery } from './keySettings.ts';
import { keyInsert, keyLimitsUpdate, sqliteKeyUsage } from './keySql.ts';
import { KEYS_WITH_USERS, stampSqliteUserRows } from './keyUsers.ts';
import { storedSecrets } from './channelSecretsAtRest.ts';
import { chooseNamed, SQLITE_USERS_NAMED, userNameTaken } from './userNames.ts';

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/i.test(error.message);
}

/** Ids per slice of a log scan: about 1 ms of the event loop each (requestLogs.ts). */
const LOG_SCAN_WINDOW = 20_000;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly #db: DatabaseSync;
  readonly #changes: SqliteChanges;
  #batchWriter: BatchWriter | null = null;
  #sessionTable: SqliteSessions | null = null;
  get #sessions(): SqliteSessions {
    return (this.#sessionTable ??= new SqliteSessions(this.#db));
  }
  #auditTable: SqliteAudit | null = null;
  get #audit(): SqliteAudit {
    return (this.#auditTable ??= new SqliteAudit(this.#db));
  }
  #tokenTable: SqliteAdminTokens | null = null;
  get adminTokens(): SqliteAdminTokens {
    return (this.#tokenTable ??= new SqliteAdminTokens(this.#db, (work) => this.#tx(work), () => this.#audit));
  }
  #codeTable: SqliteCodes | null = null;
  get #codes(): SqliteCodes {
    return (this.#codeTable ??= new SqliteCodes(this.#db, (audit, work) => this.#audited(audit, work), () => this.#changed()));
  }
  #settingsTable: SqliteSettings | null = null;
  get settings(): SqliteSettings {
    return (this.#settingsTable ??= new SqliteSettings(this.#db, (audit, work) => this.#audited(audit, work), () => this.#changed()));
  }
  #requestLogs: SqlRequestLogs | null = null;
  get requestLogs(): SqlRequestLogs {
    return (this.#requestLogs ??= new SqlRequestLogs(async (sql, params) => this.#db.prepare(sql).all(...params) as Row[], () => '?', LOG_SCAN_WINDOW));
  }
  #signUpTable: SqliteSignUps | null = null;
  get signUps(): SqliteSignUps {
    return (this.#signUpTable ??= new SqliteSignUps(this.#db, this.#codes, (audit, work) => this.#audited(audit, work), () => this.#changed()));
  }

  readonly #box: SecretBox;
  readonly #toChannel = (row: Row): ChannelRecord => toChannel(row, (stored, what) => (isSealed(stored) ? this.#box.open(stored, what) : stored));

  /**
   * Opens (creating if needed) the database file (sqliteOpen.ts), migrates it and seals any channel key an older
   * version left in plain text; `readOnly` does none of that, for a folder that cannot be written. Throws when
   * node:sqlite is unavailable.
   */
  constructor(file: string, box: SecretBox, { readOnly = false }: { readonly readOnly?: boolean } = {}) {
    this.#box = box;
    this.#db = readOnly ? openDatabaseFileReadOnly(file) : openDatabaseFile(file);
    this.#changes = new SqliteChanges(this.#db, file);
    try {
      // Read-only (a folder this process cannot write): the file is read as it is, never upgraded nor sealed.
      if (readOnly) requireCurrentSchema(this.#db, file);
      else this.#tx(() => migrateSqlite(this.#db, file));
      if (!readOnly && this.#tx(() => sealPlainChannelSecrets(this.#db, box))) this.#changed();
    } catch (error) {
      this.#db.close();
      throw unusableFile(error, file);
    }
  }

  /** IMMEDIATE takes the write lock up front (writes); DEFERRED gives reads one consistent view. */
  #tx<T>(work: () => T, mode: 'IMMEDIATE' | 'DEFERRED' = 'IMMEDIATE'): T {
    this.#db.exec(`BEGIN ${mode}`);
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite may have rolled back already (a full disk fails the COMMIT): the first error is the one to tell.
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  #changed(): void {
    this.#changes.markChanged();
  }

  /** `work` and its audit row in one transaction; the row is checked (no secret) before anything is written. */
  #audited<T>(audit: AuditEntry | undefined, work: () => T): T {
    const row = SqliteAudit.check(audit);
    return this.#tx(() => {
      const result = work();
      if (row) this.#audit.append(row);
      return result;
    });
  }

  async appendAudit(entry: AuditEntry): Promise<AuditRecord> {
    return this.#audit.append(SqliteAudit.check(entry)!);
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    return this.#audit.list(filter);
  }

  /** Cheap between writes: sqliteChanges.ts. */
  changedSinceLastCheck(): boolean {
    return this.#changes.take();
  }

  async snapshot(since: string | null = null): Promise<Snapshot> {
    return this.#tx(() => sqliteSnapshot(this.#db, since, this.#toChannel), 'DEFERRED');
  }

  async createAccount(name: string, balance: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(balance, 0);
    return toAccount(this.#audited(audit, () => this.#insertNamed('account', name, 'INSERT INTO accounts (name, balance, created_at) VALUES (?, ?, ?) RETURNING *', name, balance, Date.now())));
  }

  /** A consistent copy of the whole database into a new file, while the gateway serves (SQLite's VACUUM INTO). */
  async backup(target: string): Promise<void> {
    backupSqlite(this.#db, target);
  }

  async topUp(name: string, amount: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(amount);
    return this.#audited(audit, () => {
      const row = this.#db.prepare('UPDATE accounts SET balance = balance + ? WHERE name = ? AND balance + ? <= ? RETURNING *').get(amount, name, amount, MAX_BALANCE_MICRO) as Row | undefined;
      if (!row) {
        const found = this.#db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as Row | undefined;
        throw found ? overCeiling(toAccount(found), amount) : new StoreError('not_found', `no account named "${name}"`);
      }
      this.#changed();
      return toAccount(row);
    });
  }

  async getAccount(name: string): Promise<AccountRecord | null> {
    const row = this.#db.prepare('SELECT * FROM accounts WHERE name = ?').get(name) as Row | undefined;
    return row ? toAccount(row) : null;
  }

  /** An INSERT ... RETURNING the row; a name taken already is a conflict. */
  #insertNamed(what: string, name: string, sql: string, ...params: SQLInputValue[]): Row {
    try {
      const row = this.#db.prepare(sql).get(...params) as Row;
      this.#changed();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreError('conflict', what === 'account' ? `account "${name}" already exists` : `a ${what} named "${name}" already exists`);
      throw error;
    }
  }

  /** An UPDATE (or DELETE) of the row named `name` (the statement's last parameter); no such row is not found. */
  #updateNamed(what: string, name: string, sql: string, ...params: SQLInputValue[]): void {
    const result = this.#db.prepare(sql).run(...params, name);
    if (Number(result.changes) === 0) throw new StoreError('not_found', `no ${what} named "${name}"`);
    this.#changed();
  }

  async createUser(user: NewUser, audit?: AuditEntry): Promise<UserRecord> {
    return toUser(this.#audited(audit, () => {
      const taken = this.#db.prepare(SQLITE_USERS_NAMED).get(user.name) as Row | undefined;
      if (taken) throw userNameTaken(user.name, String(taken.name));
      const row = this.#insertNamed('user', user.name, 'INSERT INTO users (name, account_id, admin, password_hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
        user.name, user.accountId, user.admin ? 1 : 0, user.passwordHash, Date.now());
      // An enabled user on an account whose users were all disabled frees its keys (keyUsers.ts).
      stampSqliteUserRows(this.#db, { accountId: user.accountId });
      return row;
    }));
  }

  async listUsers(): Promise<UserRecord[]> {
    return (this.#db.prepare('SELECT * FROM users ORDER BY id').all() as Row[]).map(toUser);
  }

  async totals(): Promise<GatewayTotals> {
    return toTotals(this.#db.prepare(totalsQuery((column) => `TOTAL(${column})`)).get() as Row);
  }

  async pageUsers(page: UserPage): Promise<UserWithAccount[]> {
    const { sql, params } = userPageQuery(page, (i) => `?${i}`);
    return (this.#db.prepare(sql).all(...(params as SQLInputValue[])) as Row[]).map(toUserWithAccount);
  }

  async findUser(by: { readonly id: number } | { readonly name: string }): Promise<UserRecord | null> {
    if ('id' in by) return ((row) => (row ? toUser(row) : null))(this.#db.prepare('SELECT * FROM users WHERE id = ?').get(by.id) as Row | undefined);
    return chooseNamed((this.#db.prepare(SQLITE_USERS_NAMED).all(by.name) as Row[]).map(toUser), by.name);
  }

  async setUserStatus(name: string, status: Status, change?: UserChange): Promise<void> {
    this.#audited(change?.audit, () => {
      this.#audit.keepAnAdmin(name, { status }, change);
      this.#updateNamed('user', name, 'UPDATE users SET status = ? WHERE name = ?', status);
      stampSqliteUserRows(this.#db, { user: name });
      if (status === 'disabled') this.#sessions.revokeUser(name, Date.now());
    });
  }

  async setUserPassword(name: string, passwordHash: string, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => {
      this.#updateNamed('user', name, 'UPDATE users SET password_hash = ? WHERE name = ?', passwordHash);
      this.#sessions.revokeUser(name, Date.now());
    });
  }

  async setUserAdmin(name: string, admin: boolean, change?: UserChange): Promise<void> {
    this.#audited(change?.audit, () => {
      this.#audit.keepAnAdmin(name, { admin }, change);
      this.#updateNamed('user', name, 'UPDATE users SET admin = ? WHERE name = ?', admin ? 1 : 0);
    });
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    return this.#tx(() => this.#sessions.create(session));
  }

  async findSession(idHash: string): Promise<SessionRecord | null> {
    return this.#sessions.find(idHash);
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    this.#sessions.touch(idHash, at);
  }

  async revokeSession(idHash: string, at: number): Promise<void> {
    this.#sessions.revoke(idHash, at);
  }

  async deleteEndedSessions(now: number, idleSince: number): Promise<number> {
    return this.#sessions.deleteEnded(now, idleSince);
  }

  async createCodes(codes: readonly NewRedemptionCode[], audit?: AuditEntry): Promise<RedemptionCodeRecord[]> {
    return this.#codes.create('redemption', codes, audit);
  }

  async listCodes(filter: CodeFilter): Promise<RedemptionCodeRecord[]> {
    return this.#codes.list('redemption', filter);
  }

  async disableCodes(target: CodeTarget, audit?: AuditEntry): Promise<number> {
    return this.#codes.disable('redemption', target, audit);
  }

  async redeemCode(hash: string, by: Redeemer, now: number): Promise<Redemption | null> {
    return this.#codes.redeem(hash, by, now);
  }

  async createKey(key: NewKey): Promise<KeyRecord> {
    const { sql, values } = keyInsert(key, () => '?');
    return toKey(this.#insertNamed('key', key.name, sql, ...values));
  }

  async setKeyLimits(id: number, limits: KeyLimits, audit?: AuditEntry): Promise<void> {
    const { sql, values } = keyLimitsUpdate(limits, () => '?');
    this.#audited(audit, () => this.#updateKey(id, sql, ...values));
  }

  async keyUsage(queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>> {
    return sqliteKeyUsage(this.#db, queries);
  }

  async listKeys(accountId?: number): Promise<KeyRecord[]> {
    const rows = accountId === undefined ? this.#db.prepare(`${KEYS_WITH_USERS} ORDER BY k.id`).all() : this.#db.prepare(`${KEYS_WITH_USERS} WHERE k.account_id = ? ORDER BY k.id`).all(accountId);
    return (rows as Row[]).map(toKey);
  }

  /** An UPDATE (or DELETE) of the key `id` (the statement's last parameter); no such key is not found. */
  #updateKey(id: number, sql: string, ...params: SQLInputValue[]): void {
    const result = this.#db.prepare(sql).run(...params, id);
    if (Number(result.changes) === 0) throw new StoreError('not_found', `no key with id ${id}`);
    this.#changed();
  }

  async setKeyStatus(id: number, status: Status): Promise<void> {
    this.#updateKey(id, 'UPDATE api_keys SET status = ? WHERE id = ?', status);
  }

  async setKeySecret(id: number, hash: string, prefix: string): Promise<void> {
    try {
      this.#updateKey(id, 'UPDATE api_keys SET key_hash = ?, key_prefix = ? WHERE id = ?', hash, prefix);
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreError('conflict', 'a key with this secret exists already');
      throw error;
    }
  }

  async deleteKey(id: number): Promise<boolean> {
    const result = this.#tx(() => {
      this.#db.prepare('DELETE FROM key_usage WHERE key_id = ?').run(id);
      return this.#db.prepare('DELETE FROM api_keys WHERE id = ?').run(id);
    });
    this.#changed();
    return Number(result.changes) > 0;
  }

  async addChannel(c: NewChannel, audit?: AuditEntry): Promise<ChannelRecord> {
    return this.#toChannel(this.#audited(audit, () => this.#insertNamed('channel', c.name, `INSERT INTO channels (name, type, base_url, api_key, models, priority, weight, timeout_ms, proxy, responses_api, created_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ...((s) => [c.name, c.type, s.baseUrl, s.apiKey, JSON.stringify(c.models), c.priority, c.weight, c.timeoutMs, s.proxy])(storedSecrets(c, (plain) => this.#box.seal(plain))),
      c.responsesApi === null || c.responsesApi === undefined ? null : c.responsesApi ? 1 : 0, Date.now())));
  }

  async listChannels(): Promise<ChannelRecord[]> {
    return (this.#db.prepare('SELECT * FROM channels ORDER BY id').all() as Row[]).map(this.#toChannel);
  }

  async setChannelStatus(name: string, status: Status, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => this.#updateNamed('channel', name, 'UPDATE channels SET status = ? WHERE name = ?', status));
  }

  async updateChannel(name: string, changes: ChannelChanges, audit?: AuditEntry): Promise<ChannelRecord> {
    const { sql, values } = channelUpdate(name, changes, () => '?', (plain) => this.#box.seal(plain), (flag) => (flag ? 1 : 0));
    return this.#toChannel(this.#audited(audit, () => {
      const row = this.#db.prepare(sql).get(...(values as SQLInputValue[]), name) as Row | undefined;
      if (!row) throw new StoreError('not_found', `no channel named "${name}"`);
      this.#changed();
      return row;
    }));
  }

  async removeChannel(name: string, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => this.#updateNamed('channel', name, 'DELETE FROM channels WHERE name = ?'));
  }

  async setModel(m: ModelRecord, audit?: AuditEntry): Promise<void> {
    const { sql, values } = modelUpsert(m, () => '?', (flag) => (flag ? 1 : 0));
    this.#audited(audit, () => this.#db.prepare(sql).run(...(values as SQLInputValue[])));
    this.#changed();
  }

  async listModels(): Promise<ModelRecord[]> {
    return (this.#db.prepare('SELECT * FROM models ORDER BY name').all() as Row[]).map(toModel);
  }

  async write(batch: WriteBatch): Promise<void> {
    if (batch.logs.length === 0 && batch.keysUsed.size === 0) return;
    const writer = (this.#batchWriter ??= new BatchWriter(this.#db));
    try {
      this.#tx(() => writer.apply(batch));
    } catch (error) {
      throw overdrawnOr(this.#db, batch, error);
    }
  }

  async pruneLogs(before: number): Promise<number> {
    return pruneSqliteLogs(this.#db, before);
  }

  async listLogs(limit: number): Promise<StoredLog[]> {
    return (this.#db.prepare(`${LOG_SELECT} ORDER BY l.id DESC LIMIT ?`).all(limit) as Row[]).map(toLog);
  }

  async listKeyLogs(keyId: number, limit: number): Promise<StoredLog[]> {
    return (this.#db.prepare(`${LOG_SELECT} WHERE l.key_id = ? ORDER BY l.id DESC LIMIT ?`).all(keyId, limit) as Row[]).map(toLog);
  }

  async close(): Promise<void> {
    this.#changes.close();
    if (this.#db.isOpen) this.#db.close();
  }
}

