/**
 * The request logs as the console reads them: pages of filtered rows (logQuery.ts), one row in full, and the
 * dashboards' numbers (logStats.ts). One implementation serves both SQL stores, given how to run a query
 * and how the dialect writes a parameter; the memory store has its own (memoryRequestLogs.ts).
 */
import { LOG_SELECT, logsSql, scansRows, type LogFilter } from './logQuery.ts';
import { statsOf, statsSql, type LogStats, type StatsGroups, type StatsQuery } from './logStats.ts';
import type { SqlParam } from './newestFirst.ts';
import { num, toLog, type Row } from './sqlRows.ts';
import type { StoredLog } from './types.ts';

export interface RequestLogStore {
  /** Filtered rows: newest first, or oldest first after an id (LogFilter). */
  list(filter: LogFilter): Promise<StoredLog[]>;
  /** One row by id, of any account (the caller decides who may see it); null when there is none. */
  get(id: number): Promise<StoredLog | null>;
  /**
   * The highest id of the rows kept (0: none). Every row with a lower id is visible already, so a list read
   * after this has seen every row up to it (the logs pages' next_after).
   */
  maxId(): Promise<number>;
  /** A dashboard's numbers, from the hourly tally written with the rows. */
  stats(query: StatsQuery): Promise<LogStats>;
}

/** Runs a read: the rows the database answers. */
export type SqlReader = (sql: string, params: readonly SqlParam[]) => Promise<Row[]>;

const sumOf = (v: unknown): number => (v === null || v === undefined ? 0 : num(v));

export class SqlRequestLogs implements RequestLogStore {
  readonly #read: SqlReader;
  readonly #placeholder: (n: number) => string;
  readonly #scanWindow: number | null;

  /**
   * `scanWindow`: a database whose reads block the caller's thread (SQLite) scans a filter without an index
   * this many ids at a time, with a turn of the event loop between slices: a request id looked up among
   * millions of rows (about 60 ms per million, a whole account's through its index three times that) then
   * never holds up the requests the gateway is serving. Null: one query (PostgreSQL scans in its own process).
   */
  constructor(read: SqlReader, placeholder: (n: number) => string, scanWindow: number | null = null) {
    this.#read = read;
    this.#placeholder = placeholder;
    this.#scanWindow = scanWindow;
  }

  async list(filter: LogFilter): Promise<StoredLog[]> {
    if (this.#scanWindow === null || !scansRows(filter)) {
      const { sql, params } = logsSql(filter, this.#placeholder);
      return (await this.#read(sql, params)).map(toLog);
    }
    return (await this.#scanInSlices(filter, this.#scanWindow)).map(toLog);
  }

  /** The rows of `list(filter)`, read one window of ids at a time in the filter's order until the page is full. */
  async #scanInSlices(filter: LogFilter, size: number): Promise<Row[]> {
    const [bounds] = await this.#read('SELECT MIN(id) AS low, MAX(id) AS high FROM request_logs', []);
    if (bounds?.low === null || bounds?.low === undefined) return [];
    const low = Math.max(num(bounds.low), (filter.afterId ?? -Infinity) + 1);
    const high = Math.min(num(bounds.high) + 1, filter.beforeId ?? Infinity);
    const ascending = filter.afterId !== undefined;
    const rows: Row[] = [];
    for (let done = 0; rows.length < filter.limit && done < high - low; done += size) {
      if (done > 0) await new Promise((resolve) => setImmediate(resolve));
      const window = ascending ? { atLeast: low + done, below: Math.min(high, low + done + size) } : { atLeast: Math.max(low, high - done - size), below: high - done };
      const { sql, params } = logsSql({ ...filter, limit: filter.limit - rows.length }, this.#placeholder, window);
      rows.push(...(await this.#read(sql, params)));
    }
    return rows;
  }

  async get(id: number): Promise<StoredLog | null> {
    const [row] = await this.#read(`${LOG_SELECT} WHERE l.id = ${this.#placeholder(1)}`, [id]);
    return row ? toLog(row) : null;
  }

  async maxId(): Promise<number> {
    const [row] = await this.#read('SELECT MAX(id) AS id FROM request_logs', []);
    return sumOf(row?.id);
  }

  async stats(query: StatsQuery): Promise<LogStats> {
    const sql = statsSql(query, this.#placeholder);
    const run = async (q: { sql: string; params: SqlParam[] } | null): Promise<Row[]> => (q ? this.#read(q.sql, q.params) : []);
    const [usage, accounts, latency, spent] = await Promise.all([run(sql.usage), run(sql.accounts), run(sql.latency), run(sql.spent)]);
    const groups: StatsGroups = {
      usage: usage.map((r) => ({
        bucket: num(r.bucket), model: String(r.model), status: num(r.status), errorCode: String(r.error_code),
        requests: sumOf(r.requests), cost: sumOf(r.cost), promptTokens: sumOf(r.prompt_tokens), completionTokens: sumOf(r.completion_tokens),
      })),
      accounts: accounts.map((r) => ({
        accountId: num(r.account_id), name: r.name === null || r.name === undefined ? null : String(r.name), requests: sumOf(r.requests), errors: sumOf(r.errors),
        cost: sumOf(r.cost), promptTokens: sumOf(r.prompt_tokens), completionTokens: sumOf(r.completion_tokens),
      })),
      latency: latency.map((r) => ({ bucket: num(r.bucket), requests: sumOf(r.requests) })),
      spent: query.spent.map((_, i) => sumOf(spent[0]?.[`s${i}`])),
    };
    return statsOf(query, groups);
  }
}
