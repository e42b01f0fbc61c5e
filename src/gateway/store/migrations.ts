/**
 * Versioned schema migrations for the SQL stores, applied in order, each once.
 * Never edit a published migration: append a new one.
 */
import { keyUsersSchema } from './keyUsers.ts';
import { SQLITE_ECHO_TAKES_IMAGES, SQLITE_IMAGE_INPUT_COLUMN } from './modelImageInput.ts';
import { MAX_OUTPUT_TOKENS_COLUMN } from './modelMaxOutput.ts';
import { SQLITE_USER_NAME_INDEX } from './userNames.ts';
import { SQLITE_WRITE_STAMPS } from './writtenSince.ts';
import { SQLITE_MONEY_RULES } from './moneyRules.ts';
import type { Migration } from './migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        balance INTEGER NOT NULL,
        total_spent INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL UNIQUE,
        key_hash TEXT NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'enabled',
        models TEXT,
        expires_at INTEGER,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        rpm INTEGER NOT NULL,
        concurrency INTEGER NOT NULL
      );
      CREATE TABLE channels (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        base_url TEXT,
        api_key TEXT,
        models TEXT NOT NULL,
        priority INTEGER NOT NULL DEFAULT 0,
        weight INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL DEFAULT 'enabled',
        timeout_ms INTEGER NOT NULL,
        proxy TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE models (
        name TEXT PRIMARY KEY,
        input_price INTEGER NOT NULL,
        output_price INTEGER NOT NULL,
        context_length INTEGER,
        tool_calling INTEGER
      );
      CREATE TABLE request_logs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        account_id INTEGER,
        key_name TEXT,
        model TEXT,
        channel TEXT,
        status INTEGER NOT NULL,
        error_code TEXT,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        usage_estimated INTEGER NOT NULL,
        cost INTEGER NOT NULL,
        latency_ms INTEGER NOT NULL,
        first_byte_ms INTEGER,
        stream INTEGER NOT NULL
      );
      CREATE INDEX request_logs_time ON request_logs(time);
    `,
  },
  {
    // The console reads one key's logs, newest first: the key's id (names can be reused after a delete)
    // and an index on it (SQLite appends the rowid, so "WHERE key_id = ? ORDER BY id DESC" walks it backwards).
    // Older rows keep key_id NULL: they are not attributed to a key that may have been re-created under their name.
    version: 2,
    sql: `
      ALTER TABLE request_logs ADD COLUMN key_id INTEGER;
      CREATE INDEX request_logs_key ON request_logs(key_id);
    `,
  },
  {
    // Every log row is written on the request path's batches and nothing reads by time (lists go
    // newest first by id, the console by key_id): the time index only cost an extra B-tree insert per row.
    version: 3,
    sql: `DROP INDEX IF EXISTS request_logs_time;`,
  },
  {
    // Every kind of model (contract 1.4): its kind decides the endpoint; image models are priced per image.
    version: 4,
    sql: `
      ALTER TABLE models ADD COLUMN kind TEXT NOT NULL DEFAULT 'chat';
      ALTER TABLE models ADD COLUMN image_price INTEGER;
    `,
  },
  {
    // Prompt-cache prices (cache reads are cheaper, Anthropic's cache writes dearer); NULL: the input price.
    version: 5,
    sql: `
      ALTER TABLE models ADD COLUMN cached_input_price INTEGER;
      ALTER TABLE models ADD COLUMN cache_write_price INTEGER;
    `,
  },
  {
    // Image prices by size and quality: a JSON object of micro-USD per image, NULL when the default applies to all.
    version: 6,
    sql: `ALTER TABLE models ADD COLUMN image_prices TEXT;`,
  },
  {
    // Whether an openai channel's upstream has the Responses API (1, 0; NULL: decided by its base URL).
    version: 7,
    sql: `ALTER TABLE channels ADD COLUMN responses_api INTEGER;`,
  },
  {
    // No path may write a balance the gateway cannot read back exactly: at most $1,000,000,000
    // (MAX_BALANCE_MICRO), and a total spent below 2^53. SQLite adds no CHECK to an existing table.
    version: 8,
    sql: `
      CREATE TRIGGER accounts_money_insert BEFORE INSERT ON accounts
        WHEN NEW.balance > 1000000000000000 OR NEW.total_spent > 9007199254740991
        BEGIN SELECT RAISE(ABORT, 'an account balance above $1,000,000,000 is refused'); END;
      CREATE TRIGGER accounts_money_update BEFORE UPDATE OF balance, total_spent ON accounts
        WHEN NEW.balance > 1000000000000000 OR NEW.total_spent > 9007199254740991
        BEGIN SELECT RAISE(ABORT, 'an account balance above $1,000,000,000 is refused'); END;
    `,
  },
  {
    // The cap the gateway put on a completion (logged, and said in X-Gateway-Max-Tokens), and a model's own default cap.
    version: 9,
    sql: `
      ALTER TABLE request_logs ADD COLUMN completion_cap INTEGER;
      ALTER TABLE models ADD COLUMN default_max_tokens INTEGER;
    `,
  },
  {
    // Failover with memory: every channel tried before the one that ended the request, with why it failed.
    version: 10,
    sql: `ALTER TABLE request_logs ADD COLUMN attempts TEXT;`,
  },
  {
    // People who sign in to the console, each on an account (several may share one).
    version: 11,
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        admin INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'enabled',
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Console sign-ins: only the SHA-256 of a session id is kept (a copy of the database signs nobody in).
    // A session ends at expires_at, after IDLE_MS without use (last_seen_at), or when revoked (sign-out,
    // password change, user disabled); ended rows are deleted as new sessions are made.
    version: 12,
    sql: `
      CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX sessions_user ON sessions(user_id);
    `,
  },
  {
    // Key names are unique per account, not per gateway: a refused name no longer tells a user that
    // another account has a key of that name. SQLite cannot drop a column's UNIQUE, so the table is
    // rebuilt with every row, id and the id sequence kept (nothing references api_keys by a foreign key).
    version: 13,
    sql: `
      CREATE TABLE api_keys_v13 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'enabled',
        models TEXT,
        expires_at INTEGER,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        rpm INTEGER NOT NULL,
        concurrency INTEGER NOT NULL,
        UNIQUE (account_id, name)
      );
      INSERT INTO api_keys_v13 (id, account_id, name, key_hash, key_prefix, status, models, expires_at, created_at, last_used_at, rpm, concurrency)
        SELECT id, account_id, name, key_hash, key_prefix, status, models, expires_at, created_at, last_used_at, rpm, concurrency FROM api_keys;
      -- The id sequence goes on from the old table's: a deleted key's id is never reused, so its request
      -- logs (request_logs.key_id) are never shown as a new key's.
      DELETE FROM sqlite_sequence WHERE name = 'api_keys_v13';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'api_keys_v13', seq FROM sqlite_sequence WHERE name = 'api_keys';
      DROP TABLE api_keys;
      ALTER TABLE api_keys_v13 RENAME TO api_keys;
      -- A signed-in user reads their account's logs newest first (all their keys).
      CREATE INDEX request_logs_account ON request_logs(account_id, id);
    `,
  },
  {
    // Redemption codes (top-up, issue 10): only the SHA-256 of a code is kept, never the code. The value
    // is whole micro-USD from 1 to the ceiling of a balance, refused by the database itself otherwise
    // (a new table can have CHECKs, unlike migration 8's). A code is used once: redeemed_at and the
    // account it credited are set together, in the transaction that credits the balance (sqliteCodes.ts).
    version: 14,
    sql: `
      CREATE TABLE redemption_codes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code_hash TEXT NOT NULL UNIQUE CHECK (length(code_hash) = 64),
        value INTEGER NOT NULL CHECK (typeof(value) = 'integer' AND value >= 1 AND value <= 1000000000000000),
        batch TEXT,
        created_at INTEGER NOT NULL,
        created_by INTEGER REFERENCES users(id),
        expires_at INTEGER,
        disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
        redeemed_at INTEGER,
        redeemed_account_id INTEGER REFERENCES accounts(id),
        redeemed_user_id INTEGER REFERENCES users(id),
        CHECK ((redeemed_at IS NULL) = (redeemed_account_id IS NULL))
      );
      CREATE INDEX redemption_codes_batch ON redemption_codes(batch, id);
    `,
  },
  {
    // The audit log of admin actions (who changed which user, balance, channel or price; never a secret),
    // append-only: its rows are never updated or deleted. And each user's latest sign-in, for the admins'
    // list of users (unknown, null, for sign-ins before this version).
    version: 15,
    sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        details TEXT
      );
      CREATE INDEX audit_log_actor ON audit_log(actor, id);
      CREATE INDEX audit_log_action ON audit_log(action, id);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      ALTER TABLE users ADD COLUMN last_sign_in_at INTEGER;
    `,
  },
  {
    // Keys' own limits beyond rpm and concurrency (issue 10, keySettings.ts): tokens per minute, requests per
    // day (0: none), a spending limit in micro-USD over a period (NULL: none), an IP allow-list (JSON, NULL:
    // anywhere). And key_usage: per key and UTC day (days since 1970), its requests and settled charges, written
    // with the log rows and never pruned with them; filled here from the logs kept so far.
    version: 16,
    sql: `
      ALTER TABLE api_keys ADD COLUMN tpm INTEGER NOT NULL DEFAULT 0 CHECK (tpm >= 0 AND tpm <= 1000000000);
      ALTER TABLE api_keys ADD COLUMN rpd INTEGER NOT NULL DEFAULT 0 CHECK (rpd >= 0 AND rpd <= 1000000000);
      ALTER TABLE api_keys ADD COLUMN spend_limit INTEGER CHECK (spend_limit IS NULL OR (spend_limit >= 1 AND spend_limit <= 1000000000000000));
      ALTER TABLE api_keys ADD COLUMN spend_period TEXT NOT NULL DEFAULT 'total' CHECK (spend_period IN ('total', 'day', 'month'));
      ALTER TABLE api_keys ADD COLUMN allow_ips TEXT;
      CREATE TABLE key_usage (
        key_id INTEGER NOT NULL,
        day INTEGER NOT NULL,
        requests INTEGER NOT NULL CHECK (requests >= 0),
        spent INTEGER NOT NULL CHECK (spent >= 0 AND spent <= 9007199254740991),
        PRIMARY KEY (key_id, day)
      );
      INSERT INTO key_usage (key_id, day, requests, spent)
        SELECT key_id, time / 86400000, SUM(CASE WHEN error_code IS NULL OR error_code NOT IN ('rate_limited', 'ip_not_allowed') THEN 1 ELSE 0 END), SUM(cost)
          FROM request_logs WHERE key_id IS NOT NULL GROUP BY key_id, time / 86400000;
    `,
  },
  {
    // Admin access tokens (issue 10): a script's credential for the admins' management API, acting as the
    // admin who made it. Only the SHA-256 of a token is kept, never the token; a name is unique among the
    // tokens not revoked (the CLI revokes by name). And the audit log's rows say which token an admin
    // acted through (null: the console or the CLI).
    version: 18,
    sql: `
      CREATE TABLE admin_tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
        token_prefix TEXT NOT NULL,
        created_by INTEGER NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        last_used_at INTEGER
      );
      CREATE UNIQUE INDEX admin_tokens_live_name ON admin_tokens(name) WHERE revoked_at IS NULL;
      ALTER TABLE audit_log ADD COLUMN via_token TEXT;
    `,
  },
  {
    // Self sign-up (issue 10). Invitation codes are single-use codes like redemption codes, in the same
    // table with a kind; an invitation has no value (the table is rebuilt: SQLite cannot change a CHECK, and
    // migration 14's value CHECK refused a code without one; ids and the id sequence are kept). And
    // gateway_settings: the settings admins change at run time, one row per setting set, its value JSON.
    version: 19,
    sql: `
      CREATE TABLE redemption_codes_v19 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL DEFAULT 'redemption' CHECK (kind IN ('redemption', 'invitation')),
        code_hash TEXT NOT NULL UNIQUE CHECK (length(code_hash) = 64),
        value INTEGER CHECK ((kind = 'redemption' AND value IS NOT NULL AND typeof(value) = 'integer' AND value >= 1 AND value <= 1000000000000000)
          OR (kind = 'invitation' AND value IS NULL)),
        batch TEXT,
        created_at INTEGER NOT NULL,
        created_by INTEGER REFERENCES users(id),
        expires_at INTEGER,
        disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
        redeemed_at INTEGER,
        redeemed_account_id INTEGER REFERENCES accounts(id),
        redeemed_user_id INTEGER REFERENCES users(id),
        CHECK ((redeemed_at IS NULL) = (redeemed_account_id IS NULL))
      );
      INSERT INTO redemption_codes_v19 (id, kind, code_hash, value, batch, created_at, created_by, expires_at, disabled, redeemed_at, redeemed_account_id, redeemed_user_id)
        SELECT id, 'redemption', code_hash, value, batch, created_at, created_by, expires_at, disabled, redeemed_at, redeemed_account_id, redeemed_user_id FROM redemption_codes;
      DELETE FROM sqlite_sequence WHERE name = 'redemption_codes_v19';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'redemption_codes_v19', seq FROM sqlite_sequence WHERE name = 'redemption_codes';
      DROP TABLE redemption_codes;
      ALTER TABLE redemption_codes_v19 RENAME TO redemption_codes;
      CREATE INDEX redemption_codes_batch ON redemption_codes(kind, batch, id);
      CREATE INDEX redemption_codes_kind ON redemption_codes(kind, id);
      CREATE TABLE gateway_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    // The console's logs and dashboards (issue 10, logRollup.ts). Per log row, what its detail shows: the
    // model's name at the channel's upstream, the client's User-Agent and address. And the hourly tally the
    // dashboards read instead of aggregating the rows (usage_hourly: per account, UTC hour, model, status
    // and error code; latency_hourly: per account and hour, successful model requests by latency bucket),
    // written with the rows and filled here from the rows kept ('' for no model, no error code: key columns
    // cannot be NULL; account 0 is the whole gateway's); latencies are counted from this version on. No index
    // on request_logs: each costs every logged request, and the tally answers the dashboards.
    version: 20,
    sql: `
      ALTER TABLE request_logs ADD COLUMN upstream_model TEXT;
      ALTER TABLE request_logs ADD COLUMN user_agent TEXT;
      ALTER TABLE request_logs ADD COLUMN client_ip TEXT;
      CREATE TABLE usage_hourly (
        account_id INTEGER NOT NULL,
        hour INTEGER NOT NULL,
        model TEXT NOT NULL,
        status INTEGER NOT NULL,
        error_code TEXT NOT NULL,
        requests INTEGER NOT NULL CHECK (requests >= 0),
        cost INTEGER NOT NULL CHECK (cost >= 0),
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        PRIMARY KEY (account_id, hour, model, status, error_code)
      ) WITHOUT ROWID;
      CREATE INDEX usage_hourly_hour ON usage_hourly(hour);
      CREATE TABLE latency_hourly (
        account_id INTEGER NOT NULL,
        hour INTEGER NOT NULL,
        bucket INTEGER NOT NULL,
        requests INTEGER NOT NULL CHECK (requests >= 0),
        PRIMARY KEY (account_id, hour, bucket)
      ) WITHOUT ROWID;
      CREATE INDEX latency_hourly_hour ON latency_hourly(hour);
      INSERT INTO usage_hourly (account_id, hour, model, status, error_code, requests, cost, prompt_tokens, completion_tokens)
        SELECT account_id, time / 3600000, COALESCE(model, ''), status, COALESCE(error_code, ''), COUNT(*), SUM(cost), SUM(prompt_tokens), SUM(completion_tokens)
          FROM request_logs WHERE account_id IS NOT NULL GROUP BY account_id, time / 3600000, COALESCE(model, ''), status, COALESCE(error_code, '');
      INSERT INTO usage_hourly (account_id, hour, model, status, error_code, requests, cost, prompt_tokens, completion_tokens)
        SELECT 0, time / 3600000, COALESCE(model, ''), status, COALESCE(error_code, ''), COUNT(*), SUM(cost), SUM(prompt_tokens), SUM(completion_tokens)
          FROM request_logs WHERE account_id IS NOT NULL GROUP BY time / 3600000, COALESCE(model, ''), status, COALESCE(error_code, '');
    `,
  },
  // Which accounts and keys were written since a read: the catalogue reloads only those (writtenSince.ts).
  { version: 21, sql: SQLITE_WRITE_STAMPS },
  // A key remembers the user who made it (NULL: the CLI's, and every key made before), and a disabled user's
  // keys are refused; the indexes read a key's or an account's users' state (keyUsers.ts).
  { version: 22, sql: keyUsersSchema('INTEGER') },
  // User names found without case (userNames.ts).
  { version: 23, sql: SQLITE_USER_NAME_INDEX },
  // A model's maximum output tokens: larger caps are lowered to it (modelMaxOutput.ts).
  { version: 24, sql: MAX_OUTPUT_TOKENS_COLUMN },
  { version: 25, sql: SQLITE_IMAGE_INPUT_COLUMN }, // whether a model takes images as input (modelImageInput.ts)
  { version: 26, sql: SQLITE_ECHO_TAKES_IMAGES },
  { version: 27, ...SQLITE_MONEY_RULES }, // money the database itself refuses: not whole, negative, past a ceiling (moneyRules.ts)
];
