/**
 * What the catalogue reloads after a change: only the accounts and keys written since its last read,
 * not every row. A full read cost 85 ms at 10,000 accounts and 30,000 keys and ~550-730 ms at 50,000 and
 * 150,000 (SQLite, one process; on PostgreSQL every instance), on every change anyone made: a key
 * created in the console, a top-up, a redemption. Channels, models and settings are few and still read
 * whole.
 *
 * Triggers stamp each account and key row when it is written (a key's last use excepted: the log batches
 * write it all the time, and the catalogue does not keep it), and a deleted key leaves its id in
 * `removed_keys`. A user's change stamps the rows whose users' state it changes (keyUsers.ts). A read
 * returns, with the rows, where the next one starts:
 *   - SQLite: a counter the stamps take from (`write_seq`). One writer at a time, so the order of the
 *     stamps is the order of the commits: the next read asks for stamps above the counter it saw.
 *   - PostgreSQL: the writing transaction's id, and as the start the oldest transaction the read's
 *     snapshot saw running (as PostgresLeases.changedAccounts): any write it did not see is by a
 *     transaction at or after it, however late it commits.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Query } from './postgresQuery.ts';
import { ACCOUNTS_WITH_USERS, KEYS_WITH_USERS } from './keyUsers.ts';
import { toAccount, toKey, toModel, type Row } from './sqlRows.ts';
import type { ChannelRecord, Snapshot } from './types.ts';

export const SQLITE_WRITE_STAMPS = `
  CREATE TABLE write_seq (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
  INSERT INTO write_seq (id, n) VALUES (1, 0);
  ALTER TABLE accounts ADD COLUMN written_seq INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE api_keys ADD COLUMN written_seq INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX accounts_written ON accounts(written_seq);
  CREATE INDEX api_keys_written ON api_keys(written_seq);
  CREATE TABLE removed_keys (key_id INTEGER NOT NULL, written_seq INTEGER NOT NULL);
  CREATE INDEX removed_keys_written ON removed_keys(written_seq);
  CREATE TRIGGER accounts_inserted AFTER INSERT ON accounts BEGIN
    UPDATE write_seq SET n = n + 1;
    UPDATE accounts SET written_seq = (SELECT n FROM write_seq) WHERE id = NEW.id;
  END;
  -- The stamp's own update changes written_seq: it does not stamp again.
  CREATE TRIGGER accounts_updated AFTER UPDATE ON accounts WHEN NEW.written_seq IS OLD.written_seq BEGIN
    UPDATE write_seq SET n = n + 1;
    UPDATE accounts SET written_seq = (SELECT n FROM write_seq) WHERE id = NEW.id;
  END;
  CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys BEGIN
    UPDATE write_seq SET n = n + 1;
    UPDATE api_keys SET written_seq = (SELECT n FROM write_seq) WHERE id = NEW.id;
  END;
  CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys WHEN NEW.written_seq IS OLD.written_seq AND NEW.last_used_at IS OLD.last_used_at BEGIN
    UPDATE write_seq SET n = n + 1;
    UPDATE api_keys SET written_seq = (SELECT n FROM write_seq) WHERE id = NEW.id;
  END;
  CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN
    UPDATE write_seq SET n = n + 1;
    INSERT INTO removed_keys (key_id, written_seq) VALUES (OLD.id, (SELECT n FROM write_seq));
  END;
`;

/** Migration 14 on PostgreSQL (accounts' stamps are also what PostgresLeases.changedAccounts reads). */
export const POSTGRES_WRITE_STAMPS = `
  CREATE FUNCTION mg_row_written() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    NEW.written_by := pg_current_xact_id();
    RETURN NEW;
  END
  $fn$;
  -- Not indexed: an index on a column every debit changes would end HOT updates of accounts; a scan that
  -- keeps a few rows of tens of thousands costs the server a few milliseconds.
  ALTER TABLE accounts ADD COLUMN written_by xid8;
  CREATE TRIGGER accounts_written BEFORE INSERT OR UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION mg_row_written();
  ALTER TABLE api_keys ADD COLUMN written_by xid8;
  CREATE INDEX api_keys_written ON api_keys(written_by);
  CREATE TRIGGER api_keys_inserted BEFORE INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION mg_row_written();
  -- Whole rows compared: a last use that changed nothing (an older time from another instance) is no write either.
  CREATE TRIGGER api_keys_updated BEFORE UPDATE ON api_keys FOR EACH ROW
    WHEN (NEW.last_used_at IS NOT DISTINCT FROM OLD.last_used_at AND NEW IS DISTINCT FROM OLD) EXECUTE FUNCTION mg_row_written();
  CREATE TABLE removed_keys (key_id BIGINT NOT NULL, removed_by xid8 NOT NULL);
  CREATE INDEX removed_keys_removed ON removed_keys(removed_by);
  CREATE FUNCTION mg_key_removed() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    INSERT INTO removed_keys (key_id, removed_by) VALUES (OLD.id, pg_current_xact_id());
    RETURN OLD;
  END
  $fn$;
  CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION mg_key_removed();
`;

/** The SQLite snapshot, whole (`since` null) or of the accounts and keys written since; run it in one read transaction. */
export function sqliteSnapshot(db: DatabaseSync, since: string | null, toChannel: (row: Row) => ChannelRecord): Snapshot {
  const cursor = String((db.prepare('SELECT n FROM write_seq').get() as Row).n);
  // Whole in id order, as ever; written since through the stamps' index (an ORDER BY id would scan by id instead).
  // Each row with its users' state (keyUsers.ts), alias `k` or `a`.
  const rows = (select: string, alias: string): Row[] =>
    (since === null ? db.prepare(`${select} ORDER BY ${alias}.id`).all() : db.prepare(`${select} WHERE ${alias}.written_seq > ?`).all(Number(since))) as Row[];
  return {
    accounts: rows(ACCOUNTS_WITH_USERS, 'a').map(toAccount),
    keys: rows(KEYS_WITH_USERS, 'k').map(toKey),
    channels: (db.prepare('SELECT * FROM channels ORDER BY id').all() as Row[]).map(toChannel),
    models: (db.prepare('SELECT * FROM models').all() as Row[]).map(toModel),
    ...(since === null ? {} : { removedKeys: (db.prepare('SELECT DISTINCT key_id FROM removed_keys WHERE written_seq > ?').all(Number(since)) as Row[]).map((r) => Number(r.key_id)) }),
    cursor,
  };
}

/** The same on PostgreSQL; run it in one REPEATABLE READ transaction (one snapshot for every statement). */
export async function postgresSnapshot(query: Query, since: string | null, toChannel: (row: Row) => ChannelRecord): Promise<Snapshot> {
  const cursor = String((await query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon')).rows[0]!.horizon);
  const written = (alias: string): string => (since === null ? '' : `WHERE ${alias}.written_by >= $1::xid8`);
  const params = since === null ? [] : [since];
  return {
    accounts: (await query(`${ACCOUNTS_WITH_USERS} ${written('a')} ORDER BY a.id`, params)).rows.map(toAccount),
    keys: (await query(`${KEYS_WITH_USERS} ${written('k')} ORDER BY k.id`, params)).rows.map(toKey),
    channels: (await query('SELECT * FROM channels ORDER BY id')).rows.map(toChannel),
    models: (await query('SELECT * FROM models ORDER BY name')).rows.map(toModel),
    ...(since === null ? {} : { removedKeys: (await query('SELECT DISTINCT key_id FROM removed_keys WHERE removed_by >= $1::xid8', [since])).rows.map((r) => Number(r.key_id)) }),
    cursor,
  };
}
