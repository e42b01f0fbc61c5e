/**
 * The memory store's request logs: the rows in id order and the same hourly tally as the SQL stores
 * (logRollup.ts), kept as maps, and the reads the console makes of them. The dashboards' groups are made as
 * the SQL stores' GROUP BY makes them, and folded by the same statsOf, so every store answers alike.
 */
import { listLogsOf, type LogFilter } from './logQuery.ts';
import { GATEWAY, hourOf, rollupOf, type LatencyRow, type UsageRow } from './logRollup.ts';
import { statsOf, type LogStats, type StatsQuery, type UsageSum, type UsageGroup } from './logStats.ts';
import { newestFirst } from './newestFirst.ts';
import type { RequestLogStore } from './requestLogs.ts';
import type { RequestLog, StoredLog } from './types.ts';

export class MemoryRequestLogs implements RequestLogStore {
  #rows: StoredLog[] = [];
  #usage = new Map<string, UsageRow>();
  #latency = new Map<string, LatencyRow>();
  /** The names of accounts, by id, as they are now (the SQL stores join the accounts table). */
  readonly #accountName: (id: number) => string | null;

  constructor(accountName: (id: number) => string | null) {
    this.#accountName = accountName;
  }

  /** A written batch: its rows (ids given by the store, in order) and their tally. */
  append(rows: readonly StoredLog[], logs: readonly RequestLog[]): void {
    this.#rows.push(...rows);
    const { usage, latency } = rollupOf(logs);
    for (const u of usage) {
      const key = JSON.stringify([u.accountId, u.hour, u.model, u.status, u.errorCode]);
      const had = this.#usage.get(key);
      if (!had) this.#usage.set(key, { ...u });
      else for (const k of ['requests', 'cost', 'promptTokens', 'completionTokens'] as const) had[k] += u[k];
    }
    for (const t of latency) {
      const key = JSON.stringify([t.accountId, t.hour, t.bucket]);
      const had = this.#latency.get(key);
      if (had) had.requests += t.requests;
      else this.#latency.set(key, { ...t });
    }
  }

  /** Rows from before `before`, and the tally's whole hours before it (logRollup.ts PRUNE_ROLLUPS). */
  prune(before: number): number {
    const kept = this.#rows.filter((l) => l.time >= before);
    const pruned = this.#rows.length - kept.length;
    this.#rows = kept;
    const hour = hourOf(before);
    for (const [key, row] of this.#usage) if (row.hour < hour) this.#usage.delete(key);
    for (const [key, row] of this.#latency) if (row.hour < hour) this.#latency.delete(key);
    return pruned;
  }

  newest(limit: number): StoredLog[] {
    return this.#rows.slice(-limit).reverse().map((l) => this.#named(l));
  }

  ofKey(keyId: number, limit: number): StoredLog[] {
    return newestFirst(this.#rows, limit, (l) => l.keyId === keyId).map((l) => this.#named(l));
  }

  async list(filter: LogFilter): Promise<StoredLog[]> {
    return listLogsOf(this.#rows, filter).map((l) => this.#named(l));
  }

  async get(id: number): Promise<StoredLog | null> {
    const row = this.#rows.find((l) => l.id === id);
    return row ? this.#named(row) : null;
  }

  async maxId(): Promise<number> {
    return this.#rows.at(-1)?.id ?? 0;
  }

  async stats(q: StatsQuery): Promise<LogStats> {
    const inScope = (r: { accountId: number; hour: number }, from = q.fromHour, to = q.toHour): boolean =>
      r.accountId === (q.accountId ?? GATEWAY) && r.hour >= from && r.hour < to;
    // GROUP BY bucket, model, status, error_code
    const usage = new Map<string, UsageGroup & UsageSum>();
    const accounts = new Map<number, UsageSum & { accountId: number; name: string | null }>();
    for (const r of this.#usage.values()) {
      if (q.accountId === undefined && r.accountId !== GATEWAY && r.hour >= q.fromHour && r.hour < q.toHour) this.#countAccount(accounts, r);
      if (!inScope(r)) continue;
      const bucket = Math.floor((r.hour - q.fromHour) / q.bucketHours);
      const key = JSON.stringify([bucket, r.model, r.status, r.errorCode]);
      const group = usage.get(key) ?? { bucket, model: r.model, status: r.status, errorCode: r.errorCode, requests: 0, errors: 0, cost: 0, promptTokens: 0, completionTokens: 0 };
      usage.set(key, { ...group, requests: group.requests + r.requests, cost: group.cost + r.cost, promptTokens: group.promptTokens + r.promptTokens, completionTokens: group.completionTokens + r.completionTokens });
    }
    const latency = new Map<number, number>();
    for (const t of this.#latency.values()) if (inScope(t)) latency.set(t.bucket, (latency.get(t.bucket) ?? 0) + t.requests);
    const usageRows = [...this.#usage.values()];
    const spent = q.spent.map(([from, to]) => usageRows.filter((r) => inScope(r, from, to)).reduce((sum, r) => sum + r.cost, 0));
    return statsOf(q, {
      usage: [...usage.values()],
      accounts: [...accounts.values()],
      latency: [...latency].map(([bucket, requests]) => ({ bucket, requests })),
      spent,
    });
  }

  /** GROUP BY account_id (the admins' accounts that spent most). */
  #countAccount(accounts: Map<number, UsageSum & { accountId: number; name: string | null }>, r: UsageRow): void {
    const account = accounts.get(r.accountId) ?? { accountId: r.accountId, name: this.#accountName(r.accountId), requests: 0, errors: 0, cost: 0, promptTokens: 0, completionTokens: 0 };
    account.requests += r.requests;
    if (r.status >= 400) account.errors += r.requests;
    account.cost += r.cost;
    account.promptTokens += r.promptTokens;
    account.completionTokens += r.completionTokens;
    accounts.set(r.accountId, account);
  }

  /** A row with its account's name as it is now. */
  #named(l: StoredLog): StoredLog {
    return l.accountId === null ? l : { ...l, accountName: this.#accountName(l.accountId) };
  }
}
