/**
 * `model-gateway migrate`: a SQLite data folder copied into an empty PostgreSQL database, in one
 * transaction, ids kept (logs still point at their keys and accounts). Rows go across by column
 * name (both stores use the same names, postgresMigrations.ts): PostgreSQL's json_populate_recordset
 * gives each value the target column's type, so no column list is written twice. Each row is read
 * through the stores' own mappers (sqlRows.ts) first, so a damaged row stops the copy with its name.
 * Channel keys are opened with the folder's secret and sealed again under MODEL_GATEWAY_SECRET_KEY.
 * Redemption and invitation codes and admin access tokens go across as they are (hashes only, used, revoked or
 * not), the admins' settings, the audit log with its ids and times, and the logs' hourly tally. Console sessions are not copied: users sign in again.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describeDatabase, redactPassword } from './databaseUrl.ts';
import { migratePostgres } from './postgresMigrate.ts';
import { BUMP_AND_NOTIFY_SQL, CHANGES_CHANNEL } from './postgresChanges.ts';
import { isSealed, SECRET_KEY_ENV, SECRET_KEY_FILE, SecretBox } from './secretBox.ts';
import { storedUrl } from './channelSecretsAtRest.ts';
import { SqliteStore } from './sqlite.ts';
import { loadSqlite } from './sqliteOpen.ts';
import { num, toAccount, toAdminToken, toAnyCode, toChannel, toKey, toKeyUsage, toLog, toModel, toUser, type Row } from './sqlRows.ts';
import { toSettings } from './settingsRows.ts';
import { StoreError } from './types.ts';
import { toAudit } from './audit.ts';
import { pgText } from './postgresQuery.ts';

/** The tables copied, parents before children, each with the mapper that checks its rows (codes of both kinds). */
const TABLES: readonly { readonly table: string; readonly check: (row: Row) => unknown }[] = [
  { table: 'accounts', check: toAccount },
  { table: 'users', check: toUser },
  { table: 'admin_tokens', check: toAdminToken },
  { table: 'redemption_codes', check: toAnyCode },
  { table: 'api_keys', check: toKey },
  { table: 'channels', check: (row) => toChannel(row, (stored) => stored) },
  { table: 'models', check: toModel },
  { table: 'request_logs', check: (row) => toLog({ ...row, account_name: null }) },
  { table: 'audit_log', check: toAudit },
  // Keys' usage per day (spending limits count on it): no id, one row per key and day, read whole.
  { table: 'key_usage', check: toKeyUsage },
  // The admins' settings: no id, one row per setting set, read whole.
  { table: 'gateway_settings', check: (row) => toSettings([row]) },
  // The request logs' hourly tally the dashboards read (logRollup.ts): no id, read whole.
  { table: 'usage_hourly', check: (row) => ['account_id', 'hour', 'status', 'requests', 'cost', 'prompt_tokens', 'completion_tokens'].map((c) => num(row[c])) },
  { table: 'latency_hourly', check: (row) => ['account_id', 'hour', 'bucket', 'requests'].map((c) => num(row[c])) },
];

/** Tables without an id column: read whole, in key order, and no identity sequence to move on. */
const UNKEYED = new Set(['models', 'key_usage', 'gateway_settings', 'usage_hourly', 'latency_hourly']);
/** Their order. */
const UNKEYED_ORDER: Readonly<Record<string, string>> = {
  models: 'name', key_usage: 'key_id, day', gateway_settings: 'name', usage_hourly: 'account_id, hour, model, status, error_code', latency_hourly: 'account_id, hour, bucket',
};

/** Rows per INSERT (request logs are read and written in pages of this many). */
const PAGE = 5000;

export interface MigrationCounts {
  readonly accounts: number;
  readonly users: number;
  readonly keys: number;
  readonly channels: number;
  readonly models: number;
  readonly logs: number;
  readonly codes: number;
  /** Rows of the audit log of admin actions. */
  readonly audit: number;
  /** Admin access tokens (their hashes), revoked or not. */
  readonly adminTokens: number;
  /** The admins' settings set (rows of gateway_settings). */
  readonly settings: number;
  /** Micro-USD, over all accounts, as verified in the target before commit. */
  readonly balance: number;
  readonly totalSpent: number;
}

/** The folder's secret: its secret.key when there is one, else the environment's (a folder run with MODEL_GATEWAY_SECRET_KEY). */
function folderBox(dataDir: string, target: SecretBox): SecretBox {
  return existsSync(join(dataDir, SECRET_KEY_FILE)) ? SecretBox.forFolder(dataDir, {}) : target;
}

export async function copySqliteToPostgres(dataDir: string, url: string, env: NodeJS.ProcessEnv): Promise<MigrationCounts> {
  // Every refusal that needs no database comes before anything is written anywhere.
  const target = SecretBox.fromEnv(env);
  if (!target) throw new StoreError('invalid', `${SECRET_KEY_ENV} is not set: channel keys are sealed again on PostgreSQL with a secret key every instance shares (32 bytes, base64 or hex; for example: openssl rand -base64 32). Nothing was written.`);
  const file = join(dataDir, 'gateway.db');
  if (!existsSync(file)) throw new StoreError('not_found', `${dataDir} holds no gateway database (${file} does not exist). Nothing was written.`);
  const sqlite = loadSqlite();
  if (!sqlite) throw new Error('node:sqlite is not available in this Node.js runtime (Node 24 needed) to read the data folder');
  const source = folderBox(dataDir, target);
  // Opened once as the store: an older folder is brought to this version's schema and checked.
  await new SqliteStore(file, source).close();
  const db = new sqlite.DatabaseSync(file, { readOnly: true });
  const where = describeDatabase(url);
  const pool = new pg.Pool({ connectionString: url, application_name: 'model-gateway migrate', max: 1 });
  pool.on('error', () => undefined);
  const client = await pool.connect().catch((error: unknown) => {
    void pool.end();
    throw new Error(`${where}: ${redactPassword(error instanceof Error ? error.message : String(error), url)}`);
  });
  try {
    await migratePostgres(client, where);
    db.exec('BEGIN'); // one consistent read of the folder
    await client.query('BEGIN');
    try {
      await client.query(`LOCK TABLE ${TABLES.map((t) => t.table).join(', ')}, sessions IN EXCLUSIVE MODE`);
      const { rows: [present] } = await client.query<Row>(`SELECT ${[...TABLES.map((t) => t.table), 'sessions'].map((t) => `(SELECT count(*) FROM ${t})`).join(' + ')} AS n`);
      if (Number(present!.n) > 0) throw new StoreError('conflict', `${where} is not empty (it holds accounts, keys, channels, models, users, codes, tokens, logs, settings or audit rows already): migrate copies into an empty database only. Nothing was written.`);
      const copied = new Map<string, number>();
      for (const { table, check } of TABLES) {
        const columns = await sharedColumns(db, client, table);
        let count = 0;
        for (const rows of pagesOf(db, table)) {
          for (const row of rows) check(row);
          const out = table === 'channels' ? rows.map((row) => resealed(row, source, target)) : rows;
          await client.query(
            `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::${table}, $1::json)`,
            [JSON.stringify(out.map((row) => pick(row, columns)))],
          );
          count += rows.length;
        }
        copied.set(table, count);
        // Identity columns go on after the highest id copied: new rows never take a copied id.
        if (!UNKEYED.has(table)) await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`);
      }
      const counts = await verify(db, client, copied);
      await client.query(BUMP_AND_NOTIFY_SQL, [CHANGES_CHANNEL, randomUUID()]);
      await client.query('COMMIT');
      return counts;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      if (db.isTransaction) db.exec('COMMIT');
    }
  } catch (error) {
    if (error instanceof Error && !(error instanceof StoreError)) error.message = `${where}: ${redactPassword(error.message, url)}`;
    throw error;
  } finally {
    client.release();
    db.close();
    await pool.end();
  }
}

/** The rows of `table` in pages of PAGE, by id (models and key_usage in one). */
function* pagesOf(db: import('node:sqlite').DatabaseSync, table: string): Generator<Row[]> {
  if (UNKEYED.has(table)) {
    const rows = db.prepare(`SELECT * FROM ${table} ORDER BY ${UNKEYED_ORDER[table]!}`).all() as Row[];
    if (rows.length > 0) yield rows;
    return;
  }
  const page = db.prepare(`SELECT * FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE}`);
  for (let after: number | bigint = -1; ;) {
    const rows = page.all(after) as Row[];
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.id as number;
  }
}

/** SQLite's own bookkeeping, not data: PostgreSQL stamps the rows its own way as they go in (writtenSince.ts). */
const NOT_COPIED = new Set(['written_seq']);

/** The columns of `table` in both databases; a SQLite column PostgreSQL lacks would be lost, so it stops the copy. */
async function sharedColumns(db: import('node:sqlite').DatabaseSync, client: pg.PoolClient, table: string): Promise<string[]> {
  const fromSqlite = (db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((r) => String(r.name)).filter((c) => !NOT_COPIED.has(c));
  const { rows } = await client.query<Row>('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table]);
  const inPostgres = new Set(rows.map((r) => String(r.column_name)));
  const missing = fromSqlite.filter((c) => !inPostgres.has(c));
  if (missing.length > 0) throw new StoreError('invalid', `the PostgreSQL table ${table} has no column ${missing.join(', ')}: this version cannot copy it. Nothing was written.`);
  return fromSqlite;
}

/** The row's `columns`, text as PostgreSQL can hold it (a NUL SQLite kept, say in a model a client once sent, would stop the copy). */
function pick(row: Row, columns: readonly string[]): Row {
  return Object.fromEntries(columns.map((c) => {
    const value = row[c] ?? null;
    return [c, typeof value === 'string' ? pgText(value) : value];
  }));
}

/** A channel row's secrets opened with the folder's key and sealed with the database's (channelSecretsAtRest.ts). */
function resealed(row: Row, source: SecretBox, target: SecretBox): Row {
  const plain = (column: 'api_key' | 'base_url' | 'proxy', what: string): string | null => {
    const stored = row[column];
    if (stored === null || stored === undefined) return null;
    return isSealed(String(stored)) ? source.open(String(stored), `${what} of channel "${String(row.name)}"`) : String(stored);
  };
  const seal = (text: string) => target.seal(text);
  const key = plain('api_key', 'the key');
  return {
    ...row,
    api_key: key === null ? null : seal(key),
    base_url: storedUrl(plain('base_url', 'the base URL'), seal, 'the base URL'),
    proxy: storedUrl(plain('proxy', 'the proxy'), seal, 'the proxy'),
  };
}

/** Counts and money compared between the folder and the target, inside the copy's transaction: a mismatch rolls it all back. */
async function verify(db: import('node:sqlite').DatabaseSync, client: pg.PoolClient, copied: ReadonlyMap<string, number>): Promise<MigrationCounts> {
  const sums = 'SELECT COALESCE(SUM(balance), 0) AS balance, COALESCE(SUM(total_spent), 0) AS spent FROM accounts';
  const from = db.prepare(sums).get() as Row;
  const { rows: [to] } = await client.query<Row>(sums);
  const logCost = 'SELECT COALESCE(SUM(cost), 0) AS cost FROM request_logs';
  const fromCost = db.prepare(logCost).get() as Row;
  const { rows: [toCost] } = await client.query<Row>(logCost);
  for (const { table } of TABLES) {
    const source = Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as Row).n);
    const { rows: [there] } = await client.query<Row>(`SELECT count(*) AS n FROM ${table}`);
    if (source !== copied.get(table) || Number(there!.n) !== source) throw new StoreError('invalid', `the copy of ${table} does not match (${source} rows in the folder, ${String(there!.n)} in the database): nothing was written`);
  }
  if (BigInt(String(from.balance)) !== BigInt(String(to!.balance)) || BigInt(String(from.spent)) !== BigInt(String(to!.spent)) || BigInt(String(fromCost.cost)) !== BigInt(String(toCost!.cost))) {
    throw new StoreError('invalid', 'the copied balances, totals or log charges do not add up to the folder\'s: nothing was written');
  }
  const count = (table: string): number => copied.get(table) ?? 0;
  return {
    accounts: count('accounts'), users: count('users'), keys: count('api_keys'), channels: count('channels'), models: count('models'), logs: count('request_logs'),
    codes: count('redemption_codes'), audit: count('audit_log'), adminTokens: count('admin_tokens'), settings: count('gateway_settings'),
    balance: Number(to!.balance), totalSpent: Number(to!.spent),
  };
}
