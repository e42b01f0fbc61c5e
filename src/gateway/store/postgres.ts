/**
 * The Store on PostgreSQL 14+ through `pg` (a Pool): for deployments that outgrow one machine.
 * Queries are parameterized, money is BIGINT (read back only as safe integers, sqlRows.ts), the
 * money rules are CHECK constraints, channel keys are sealed with the same SecretBox as SQLite.
 * Every admin write bumps gateway_changes and NOTIFYs in its own transaction (postgresChanges.ts),
 * so other instances and a serving gateway see a CLI change at once.
 *
 * Any number of serving instances share a database: the request path spends from balance leases
 * (postgresLeases.ts, accounts/leases.ts), and the log batches settle from them (postgresBatch.ts).
 * docs/multi-instance.md has the design and its invariants.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { assertAmount, overCeiling } from './amounts.ts';
import { BUMP_AND_NOTIFY_SQL, CHANGES_CHANNEL, ChangeFeed } from './postgresChanges.ts';
import { describeDatabase, redactPassword } from './databaseUrl.ts';
import { migratePostgres } from './postgresMigrate.ts';
import { PostgresLogs } from './postgresLogs.ts';
import { SqlRequestLogs } from './requestLogs.ts';
import { writeBatchOrOverdrawn } from './postgresBatch.ts';
import { PostgresKeyLimits } from './postgresKeyLimits.ts';
import { CHECK_VIOLATION, inTransaction, queryConfig, sqlState, UNIQUE_VIOLATION, type Query, type Transaction } from './postgresQuery.ts';
import type { KeyLimits, KeyUsageTotals, KeyUsageQuery } from './keySettings.ts';
import { PostgresKeys, type AdminWrite } from './postgresKeys.ts';
import { PostgresLeases } from './postgresLeases.ts';
import { PostgresCodes, type CodeChanges } from './postgresCodes.ts';
import { PostgresSettings } from './postgresSettings.ts';
import { PostgresSignUps } from './postgresSignUps.ts';
import { PostgresAdminTokens } from './postgresAdminTokens.ts';
import { revokeUserSessions, PostgresSessions } from './postgresSessions.ts';
import { stampPostgresUserRows } from './keyUsers.ts';
import type { SecretBox } from './secretBox.ts';
import { checkChannelSecrets, openChannelKey, sealChannelSecret } from './postgresSealing.ts';
import { storedSecrets } from './channelSecretsAtRest.ts';
import { chooseNamed, POSTGRES_USERS_NAMED, USER_NAMES_LOCK, userNameTaken } from './userNames.ts';
import { channelUpdate, modelUpsert, toAccount, toChannel, toModel, toUser, type Row } from './sqlRows.ts';
import { postgresSnapshot } from './writtenSince.ts';
import { toUserWithAccount, userPageQuery, type UserPage, type UserWithAccount } from './userPages.ts';
import { toTotals, totalsQuery, type GatewayTotals } from './totals.ts';
import { StoreError } from './types.ts';
import type {
  AccountRecord, AuditEntry, AuditFilter, AuditRecord, ChannelChanges, ChannelRecord, CodeFilter, CodeTarget, KeyRecord, ModelRecord, NewChannel, NewKey, NewRedemptionCode,
  NewSession, NewUser, Redeemer, Redemption, RedemptionCodeRecord, SessionRecord, Snapshot, Status, Store, StoredLog, UserChange, UserRecord, WriteBatch,
} from './types.ts';
import { auditRow } from './audit.ts';
import { appendAudit, keepAnAdmin, listAudit } from './postgresAudit.ts';

/** What runs with an UPDATE of a named row, in its transaction: checks before it, consequences after (sessions revoked). */
interface UpdateSteps {
  readonly before?: ((query: Query) => Promise<void>) | undefined;
  readonly after?: ((query: Query) => Promise<void>) | undefined;
}

export interface PostgresOptions {
  /** Receives one line per notable event (never a secret). */
  readonly log?: (line: string) => void;
  /** Connections in the pool. Default 10. */
  readonly maxConnections?: number;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  /** postgres://user@host:port/database: the database named without its password. */
  readonly where: string;
  readonly #pool: pg.Pool;
  readonly #box: SecretBox | null;
  readonly #changes: ChangeFeed;
  readonly #sessions: PostgresSessions;
  readonly #codes: PostgresCodes;
  readonly #logs: PostgresLogs;
  readonly #keys: PostgresKeys;
  readonly adminTokens: PostgresAdminTokens;
  readonly settings: PostgresSettings;
  readonly signUps: PostgresSignUps;
  readonly requestLogs: SqlRequestLogs;
  /** This process's balance leases: its instance id is new with every start. */
  readonly leases: PostgresLeases;
  /** This process's shares of the keys' limits (same instance id as its leases). */
  readonly keyLimits: PostgresKeyLimits;
  readonly #toChannel = (row: Row): ChannelRecord => toChannel(row, (stored, what) => openChannelKey(this.#box, stored, what));

  private constructor(url: string, box: SecretBox | null, options: PostgresOptions) {
    this.where = describeDatabase(url);
    const log = (line: string): void => (options.log ?? (() => undefined))(redactPassword(line, url));
    // A process frozen inside a transaction (SIGSTOP, a paused VM) would hold its account locks and stop every
    // other instance's leases and batches: the server ends such a session after 10 s (ours take milliseconds).
    const connection: pg.ClientConfig = { connectionString: url, application_name: 'model-gateway', idle_in_transaction_session_timeout: 10_000 };
    this.#pool = new pg.Pool({ ...connection, max: options.maxConnections ?? 10 });
    // An idle connection the server drops emits 'error' on the pool: without a listener it would end the process.
    this.#pool.on('error', (error) => log(`a PostgreSQL connection of the pool failed (${error.message}); it is replaced on the next query`));
    this.#box = box;
    this.#changes = new ChangeFeed(this.#pool, connection, log);
    const query: Query = (sql, params) => this.#pool.query<Row>(queryConfig(sql, params));
    const tx: Transaction = (work) => this.#tx(work);
    this.#sessions = new PostgresSessions(query);
    this.#logs = new PostgresLogs(query);
    this.requestLogs = new SqlRequestLogs(async (sql, params) => (await query(sql, [...params])).rows, (n) => `$${n}`);
    this.#keys = new PostgresKeys((what, name, work, options) => this.#admin(what, name, work, options), query);
    const changes: CodeChanges = { notify: async (inTx) => void (await inTx(BUMP_AND_NOTIFY_SQL, [CHANGES_CHANNEL, this.#changes.sender])), markChanged: () => this.#changes.markChanged() };
    this.#codes = new PostgresCodes(tx, query, changes);
    this.settings = new PostgresSettings(tx, query, changes);
    this.signUps = new PostgresSignUps(tx, this.#codes, changes);
    this.adminTokens = new PostgresAdminTokens(tx, query);
    const instance = randomUUID();
    this.leases = new PostgresLeases(instance, tx, query);
    this.keyLimits = new PostgresKeyLimits(instance, tx, query);
  }

  /**
   * Connects, migrates (once, under a lock, whoever starts first) and checks that the channel keys
   * can be opened. `box` is null when MODEL_GATEWAY_SECRET_KEY is not set: fine until a channel has a key.
   */
  static async open(url: string, box: SecretBox | null, options: PostgresOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, box, options);
    try {
      const client = await store.#pool.connect();
      try {
        await migratePostgres(client, store.where);
      } finally {
        client.release();
      }
      await checkChannelSecrets(store.#pool, box, store.where);
      return store;
    } catch (error) {
      await store.#pool.end().catch(() => undefined);
      if (error instanceof Error && !(error instanceof StoreError)) error.message = `${store.where}: ${redactPassword(error.message, url)}`;
      throw error;
    }
  }

  /** Runs `work` in one transaction on one connection of the pool. */
  async #tx<T>(work: (query: Query) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    return inTransaction(this.#pool, work, begin);
  }

  /**
   * An admin write: `work`, its audit row and the change bump with its NOTIFY commit together (other
   * instances are told only about what is really there), then this process's flag is set. A UNIQUE
   * violation is a conflict on `name`, a CHECK violation an amount the money rules refuse.
   */
  async #admin<T>(what: string, name: string, work: (query: Query) => Promise<T>, options: AdminWrite = {}): Promise<T> {
    const { conflict = `a ${what} named "${name}" already exists`, audit } = options;
    const row = audit ? auditRow(audit) : null; // checked (no secret) before anything is written
    try {
      const result = await this.#tx(async (query) => {
        const value = await work(query);
        if (row) await appendAudit(query, row);
        await query(BUMP_AND_NOTIFY_SQL, [CHANGES_CHANNEL, this.#changes.sender]);
        return value;
      });
      this.#changes.markChanged();
      return result;
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) throw new StoreError('conflict', conflict);
      if (sqlState(error) === CHECK_VIOLATION) throw new StoreError('invalid', `the ${what} "${name}": an amount outside what an account may hold (0 to ${MAX_BALANCE_MICRO} micro-USD); nothing was changed`);
      throw error;
    }
  }

  /**
   * An UPDATE (or DELETE) of the row named `name` (the statement's last parameter); no such row is not
   * found. `also` runs in the same transaction after it (sessions revoked with a user's change).
   */
  async #updateNamed(what: string, name: string, sql: string, params: unknown[], also?: UpdateSteps, options: AdminWrite = {}): Promise<void> {
    await this.#admin(what, name, async (query) => {
      await also?.before?.(query);
      const result = await query(sql, [...params, name]);
      // Thrown inside the transaction: nothing is bumped or notified for a change that did not happen.
      if (result.rowCount === 0) throw new StoreError('not_found', `no ${what} named "${name}"`);
      await also?.after?.(query);
    }, options);
  }

  async appendAudit(entry: AuditEntry): Promise<AuditRecord> {
    const row = auditRow(entry);
    return this.#tx((query) => appendAudit(query, row));
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    return listAudit((sql, params) => this.#pool.query<Row>(sql, params), filter);
  }

  changedSinceLastCheck(): boolean {
    return this.#changes.take();
  }

  async snapshot(since: string | null = null): Promise<Snapshot> {
    return this.#tx((query) => postgresSnapshot(query, since, this.#toChannel), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  async createAccount(name: string, balance: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(balance, 0);
    return toAccount(await this.#admin('account', name, async (query) =>
      (await query('INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, $3) RETURNING *', [name, balance, Date.now()])).rows[0]!, { audit }));
  }

  async backup(target: string): Promise<void> {
    throw new StoreError('invalid', `a gateway on PostgreSQL is backed up with PostgreSQL's own tools: pg_dump --format=custom --file=${target} "${this.where}" (it asks for the password)`);
  }

  async topUp(name: string, amount: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(amount);
    const row = await this.#admin('account', name, async (query) => {
      const updated = await query('UPDATE accounts SET balance = balance + $1 WHERE name = $2 AND balance + $1 <= $3 RETURNING *', [amount, name, MAX_BALANCE_MICRO]);
      if (updated.rows[0]) return updated.rows[0];
      const found = (await query('SELECT * FROM accounts WHERE name = $1', [name])).rows[0];
      throw found ? overCeiling(toAccount(found), amount) : new StoreError('not_found', `no account named "${name}"`);
    }, { audit });
    return toAccount(row);
  }

  async getAccount(name: string): Promise<AccountRecord | null> {
    return (await this.#pool.query<Row>('SELECT * FROM accounts WHERE name = $1', [name])).rows.map(toAccount)[0] ?? null;
  }

  async createUser(user: NewUser, audit?: AuditEntry): Promise<UserRecord> {
    return toUser(await this.#admin('user', user.name, async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [USER_NAMES_LOCK]);
      const [taken] = (await query(POSTGRES_USERS_NAMED, [user.name])).rows;
      if (taken) throw userNameTaken(user.name, String(taken.name));
      const { rows } = await query('INSERT INTO users (name, account_id, admin, password_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
        [user.name, user.accountId, user.admin, user.passwordHash, Date.now()]);
      await stampPostgresUserRows(query, { accountId: user.accountId }); // an enabled user frees the account's keys (keyUsers.ts)
      return rows[0]!;
    }, { audit }));
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.#pool.query<Row>('SELECT * FROM users ORDER BY id')).rows.map(toUser);
  }

  async totals(): Promise<GatewayTotals> {
    return toTotals((await this.#pool.query<Row>(totalsQuery((column) => `COALESCE(SUM(${column}), 0)::float8`))).rows[0]!);
  }

  async pageUsers(page: UserPage): Promise<UserWithAccount[]> {
    const { sql, params } = userPageQuery(page, (i) => `$${i}`);
    return (await this.#pool.query<Row>(sql, params)).rows.map(toUserWithAccount);
  }

  async findUser(by: { readonly id: number } | { readonly name: string }): Promise<UserRecord | null> {
    if ('id' in by) return (await this.#pool.query<Row>('SELECT * FROM users WHERE id = $1', [by.id])).rows.map(toUser)[0] ?? null;
    return chooseNamed((await this.#pool.query<Row>(POSTGRES_USERS_NAMED, [by.name])).rows.map(toUser), by.name);
  }

  async setUserStatus(name: string, status: Status, change?: UserChange): Promise<void> {
    await this.#updateNamed('user', name, 'UPDATE users SET status = $1 WHERE name = $2', [status], {
      before: (query) => keepAnAdmin(query, name, { status }, change),
      after: async (query) => {
        await stampPostgresUserRows(query, { user: name });
        if (status === 'disabled') await revokeUserSessions(query, name, Date.now());
      },
    }, { audit: change?.audit });
  }

  async setUserPassword(name: string, passwordHash: string, audit?: AuditEntry): Promise<void> {
    await this.#updateNamed('user', name, 'UPDATE users SET password_hash = $1 WHERE name = $2', [passwordHash], { after: (query) => revokeUserSessions(query, name, Date.now()) }, { audit });
  }

  async setUserAdmin(name: string, admin: boolean, change?: UserChange): Promise<void> {
    await this.#updateNamed('user', name, 'UPDATE users SET admin = $1 WHERE name = $2', [admin], { before: (query) => keepAnAdmin(query, name, { admin }, change) }, { audit: change?.audit });
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    return this.#sessions.create(session);
  }

  async findSession(idHash: string): Promise<SessionRecord | null> {
    return this.#sessions.find(idHash);
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.#sessions.touch(idHash, at);
  }

  async revokeSession(idHash: string, at: number): Promise<void> {
    await this.#sessions.revoke(idHash, at);
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
    return this.#keys.create(key);
  }

  async listKeys(accountId?: number): Promise<KeyRecord[]> {
    return this.#keys.list(accountId);
  }

  async setKeyStatus(id: number, status: Status): Promise<void> {
    await this.#keys.setStatus(id, status);
  }

  async setKeySecret(id: number, hash: string, prefix: string): Promise<void> {
    await this.#keys.setSecret(id, hash, prefix);
  }

  async setKeyLimits(id: number, limits: KeyLimits, audit?: AuditEntry): Promise<void> {
    await this.#keys.setLimits(id, limits, audit);
  }

  async deleteKey(id: number): Promise<boolean> {
    return this.#keys.delete(id);
  }

  async keyUsage(queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>> {
    return this.#logs.keyUsage(queries);
  }

  async addChannel(c: NewChannel, audit?: AuditEntry): Promise<ChannelRecord> {
    const s = storedSecrets(c, (plain, what) => sealChannelSecret(this.#box, plain, what));
    return this.#toChannel(await this.#admin('channel', c.name, async (query) =>
      (await query(`INSERT INTO channels (name, type, base_url, api_key, models, priority, weight, timeout_ms, proxy, responses_api, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [c.name, c.type, s.baseUrl, s.apiKey, JSON.stringify(c.models), c.priority, c.weight, c.timeoutMs, s.proxy, c.responsesApi ?? null, Date.now()])).rows[0]!, { audit }));
  }

  async listChannels(): Promise<ChannelRecord[]> {
    return (await this.#pool.query<Row>('SELECT * FROM channels ORDER BY id')).rows.map(this.#toChannel);
  }

  async setChannelStatus(name: string, status: Status, audit?: AuditEntry): Promise<void> {
    await this.#updateNamed('channel', name, 'UPDATE channels SET status = $1 WHERE name = $2', [status], undefined, { audit });
  }

  async updateChannel(name: string, changes: ChannelChanges, audit?: AuditEntry): Promise<ChannelRecord> {
    const { sql, values } = channelUpdate(name, changes, (i) => `$${i}`, (plain, what) => sealChannelSecret(this.#box, plain, what), (flag) => flag);
    return this.#toChannel(await this.#admin('channel', name, async (query) => {
      const row = (await query(sql, [...values, name])).rows[0];
      if (!row) throw new StoreError('not_found', `no channel named "${name}"`);
      return row;
    }, { audit }));
  }

  async removeChannel(name: string, audit?: AuditEntry): Promise<void> {
    await this.#updateNamed('channel', name, 'DELETE FROM channels WHERE name = $1', [], undefined, { audit });
  }

  async setModel(m: ModelRecord, audit?: AuditEntry): Promise<void> {
    const { sql, values } = modelUpsert(m, (i) => `$${i}`, (flag) => flag);
    await this.#admin('model', m.name, (query) => query(sql, values), { audit });
  }

  async listModels(): Promise<ModelRecord[]> {
    return (await this.#pool.query<Row>('SELECT * FROM models ORDER BY name')).rows.map(toModel);
  }

  /** The request path's batch: not an admin change (no NOTIFY); its debits settle from this instance's leases. */
  async write(batch: WriteBatch): Promise<void> {
    if (batch.logs.length === 0 && batch.keysUsed.size === 0) return;
    await writeBatchOrOverdrawn((sql, params) => this.#pool.query<Row>(queryConfig(sql, params)), batch, this.leases.instance);
  }

  async pruneLogs(before: number): Promise<number> {
    return this.#logs.prune(before);
  }

  async listLogs(limit: number): Promise<StoredLog[]> {
    return this.#logs.list(limit);
  }

  async listKeyLogs(keyId: number, limit: number): Promise<StoredLog[]> {
    return this.#logs.ofKey(keyId, limit);
  }

  #closing: Promise<void> | null = null;

  async close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#changes.close();
      await this.#pool.end();
    })();
    return this.#closing;
  }
}
