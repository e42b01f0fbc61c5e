/**
 * What a schema migration is, on either SQL store (migrations.ts, postgresMigrations.ts), and how one that adds a
 * rule refuses a database whose rows already break it: named, with the repair, and nothing changed (the store
 * would otherwise be unable to write those rows again, or read them at all).
 */
import { StoreError } from './types.ts';

export interface Migration {
  readonly version: number;
  readonly sql: string;
  /**
   * A SELECT of the rows that break a rule this migration adds, run before it in its transaction: columns
   * tbl, which (how to find the row: "id = 3"), col, value (as text) and rule (what the value must be).
   */
  readonly refuses?: string;
}

/** One row a migration's `refuses` query found. */
export interface RefusedRow {
  readonly tbl: string;
  readonly which: string;
  readonly col: string;
  readonly value: string | null;
  readonly rule: string;
}

/** At most this many rows are named; the rest are counted. */
const NAMED = 20;

/** The refusal of migration `version` of the database `where` (a file, a database name) for `rows`. */
export function refusedRows(where: string, version: number, rows: readonly RefusedRow[]): StoreError {
  const named = rows.slice(0, NAMED).map((r) => `  the ${r.tbl} row where ${r.which} holds ${r.value ?? 'NULL'} in ${r.col}; it must be ${r.rule}`);
  const more = rows.length > NAMED ? [`  and ${rows.length - NAMED} more`] : [];
  const first = rows[0]!;
  return new StoreError(
    'invalid',
    [
      `${where} holds values this version's store refuses (schema ${version}), so it was left as it was:`,
      ...named, ...more,
      `Repair each row with the gateway stopped, for example: UPDATE ${first.tbl} SET ${first.col} = ... WHERE ${first.which} ` +
        '(sqlite3 gateway.db, or psql), then start again.',
    ].join('\n'),
  );
}
