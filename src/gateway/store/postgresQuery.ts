/**
 * How the PostgreSQL store's parts reach the database: a query on the pool, or a unit of work in one
 * transaction. The parts an instance owns rows in (leases, key limits) take both and their instance id.
 */
import type pg from 'pg';
import type { Row } from './sqlRows.ts';

export type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult<Row>>;
export type Transaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

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
