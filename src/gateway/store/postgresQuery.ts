/**
 * How the PostgreSQL store's parts reach the database: a query on the pool, or a unit of work in one
 * transaction (run by inTransaction). The parts an instance owns rows in (leases, key limits) take both
 * and their instance id.
 */
import type pg from 'pg';
import type { Row } from './sqlRows.ts';

export type Query = (sql: string | PreparedSql, params?: unknown[]) => Promise<pg.QueryResult<Row>>;

/**
 * A statement run often (each log batch's): prepared once per connection under its name, so PostgreSQL
 * parses and plans it once, not at every batch, and only its parameters cross the wire after that.
 */
export interface PreparedSql {
  readonly name: string;
  readonly text: string;
}

export const prepared = (name: string, text: string): PreparedSql => ({ name, text });

/** pg's query config for a statement and its parameters. */
export function queryConfig(sql: string | PreparedSql, params?: unknown[]): pg.QueryConfig {
  return typeof sql === 'string' ? { text: sql, ...(params ? { values: params } : {}) } : { name: sql.name, text: sql.text, ...(params ? { values: params } : {}) };
}

/**
 * Text as PostgreSQL can hold it: a NUL (which SQLite keeps) would fail the whole batch, every request's
 * charge in it with it, at every retry. Request models with control characters are refused before they
 * are logged; this is the store's own guard for any text that still carries one. (Half a surrogate pair
 * needs nothing: pg's UTF-8 encoding of a parameter writes U+FFFD for it.)
 */
export function pgText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

export type PgArrayType = 'bigint' | 'int' | 'float8' | 'boolean' | 'text';

/** What an array literal's quoted element escapes with a backslash. */
const ARRAY_ESCAPED = /["\\]/g;

/**
 * One field of `rows` as PostgreSQL's array literal (`{1,NULL,"a \\"b\\""}`), for an `unnest` of the
 * batch's columns. pg's own encoding of a JS array quotes and escapes every element through generic code:
 * 2.7 us a log row of 23 columns, against 0.8 here. Numbers and booleans go as they print; text is quoted,
 * its quotes and backslashes escaped, a NUL mended (pgText).
 */
export function pgArrayLiteral<Row>(rows: readonly Row[], field: keyof Row, type: PgArrayType): string {
  let out = '{';
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![field] as unknown;
    if (i > 0) out += ',';
    if (value === null || value === undefined) out += 'NULL';
    else if (type !== 'text') out += String(value);
    else {
      const text = String(value);
      const held = pgText(text)!;
      out += `"${held.includes('"') || held.includes('\\') ? held.replace(ARRAY_ESCAPED, '\\$&') : held}"`;
    }
  }
  return `${out}}`;
}

/** PostgreSQL's SQLSTATE for a refused row: a UNIQUE, a FOREIGN KEY and a CHECK violation. */
export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
export const CHECK_VIOLATION = '23514';
/** The SQLSTATE of a database error (undefined for any other error). */
export const sqlState = (error: unknown): string | undefined => (error as { code?: unknown }).code as string | undefined;
export type Transaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

/** Runs `work` in one transaction (opened with `begin`) on one connection of `pool`: committed, or rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (query: Query) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  // A connection lost while checked out emits 'error' on the client (the pool listens only to idle
  // ones): heard here, it fails this transaction's query instead of ending the process, and the
  // broken connection is discarded rather than returned to the pool.
  let lost: Error | undefined;
  const onLost = (error: Error): void => void (lost = error);
  client.on('error', onLost);
  try {
    await client.query(begin);
    const result = await work((sql, params) => client.query<Row>(queryConfig(sql, params)));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!lost) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onLost);
    client.release(lost);
  }
}

/** A table set whose rows belong to one gateway instance each (its `instance` id). */
export abstract class InstanceRows {
  readonly instance: string;
  protected readonly tx: Transaction;
  protected readonly query: Query;

  constructor(instance: string, tx: Transaction, query: Query) {
    this.instance = instance;
    this.tx = tx;
    this.query = query;
  }
}
