/**
 * Balance leases on PostgreSQL (the LeaseStore of types.ts; the policy is accounts/leases.ts).
 *
 * The one locking rule that keeps money in exactly one place: every transaction that changes a lease
 * or `accounts.leased` first locks the account rows it touches (FOR UPDATE, in id order, so two
 * transactions never wait on each other in a circle), and only then reads or writes leases. Takes,
 * hand-backs, the log batch's settlement (postgresBatch.ts) and the reclaim of expired leases all do,
 * so none of them can act on a lease amount another one is changing. Each further statement in
 * READ COMMITTED sees what committed before the lock was granted.
 */
import { InstanceRows, prepared, type Query } from './postgresQuery.ts';
import { toAccount } from './sqlRows.ts';
import type { LeaseStore, LeaseView } from './instances.ts';
import type { AccountRecord } from './types.ts';

const num = (value: unknown): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`a lease amount is not a safe integer: ${String(value)}`);
  return n;
};

const LOCK_LEASED_ACCOUNTS = prepared('mg_lock_leased_accounts', `SELECT a.id, a.balance, a.leased, COALESCE(l.amount, 0) AS mine
  FROM accounts a LEFT JOIN leases l ON l.account_id = a.id AND l.instance = $2
  WHERE a.id = ANY($1::bigint[]) ORDER BY a.id FOR UPDATE OF a`);

/**
 * Locks the accounts (id order) and reads each one's balance, leased total and this instance's lease.
 * The caller is inside a transaction; the locks hold until it ends.
 */
export async function lockLeasedAccounts(query: Query, instance: string, ids: readonly number[]): Promise<Map<number, LeaseView>> {
  const { rows } = await query(LOCK_LEASED_ACCOUNTS, [ids, instance]);
  return new Map(rows.map((r) => [num(r.id), { balance: num(r.balance), leased: num(r.leased), mine: num(r.mine) }]));
}

export class PostgresLeases extends InstanceRows implements LeaseStore {
  async take(accountId: number, decide: (available: number, view: LeaseView) => number, ttlMs: number): Promise<{ granted: number; view: LeaseView } | null> {
    return this.tx(async (query) => {
      const view = (await lockLeasedAccounts(query, this.instance, [accountId])).get(accountId);
      if (!view) return null;
      const available = view.balance - view.leased;
      const want = decide(available, view);
      const granted = Math.max(0, Math.min(want, available));
      if (granted === 0) return { granted, view };
      // The conditional UPDATE: never more than is available (and the CHECK leased <= balance says so again).
      const moved = await query('UPDATE accounts SET leased = leased + $2 WHERE id = $1 AND balance - leased >= $2', [accountId, granted]);
      if (moved.rowCount !== 1) throw new Error(`lease take on account ${accountId} found less available than under its lock`);
      await query(
        `INSERT INTO leases (instance, account_id, amount, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
         ON CONFLICT (instance, account_id) DO UPDATE SET amount = leases.amount + excluded.amount, expires_at = excluded.expires_at`,
        [this.instance, accountId, granted, ttlMs],
      );
      return { granted, view };
    });
  }

  async renew(ttlMs: number): Promise<Map<number, number>> {
    // Only the expiry moves (no money): no account lock needed. A lease the reclaim deleted is not found.
    const { rows } = await this.query(
      `UPDATE leases SET expires_at = now() + $2 * interval '1 millisecond' WHERE instance = $1 RETURNING account_id, amount`, [this.instance, ttlMs]);
    return new Map(rows.map((r) => [num(r.account_id), num(r.amount)]));
  }

  async giveBack(accountId: number, amount: number | 'all'): Promise<number> {
    return this.tx(async (query) => {
      if (!(await lockLeasedAccounts(query, this.instance, [accountId])).has(accountId)) return 0;
      // The lease read after the lock, in a statement of its own. Read in the locking statement, a lease another
      // transaction changed while this one waited for the lock is its old value (PostgreSQL re-reads only the
      // locked row): 'all' then deleted more than it counted back, and accounts.leased kept the difference for good.
      const { rows } = await query('SELECT amount FROM leases WHERE instance = $1 AND account_id = $2', [this.instance, accountId]);
      const mine = rows.length > 0 ? num(rows[0]!.amount) : 0;
      const back = amount === 'all' ? mine : Math.min(amount, mine);
      if (amount === 'all' || back === mine) await query('DELETE FROM leases WHERE instance = $1 AND account_id = $2', [this.instance, accountId]);
      else await query('UPDATE leases SET amount = amount - $3 WHERE instance = $1 AND account_id = $2', [this.instance, accountId, back]);
      if (back > 0) await query('UPDATE accounts SET leased = leased - $2 WHERE id = $1', [accountId, back]);
      return back;
    });
  }

  async giveBackAll(): Promise<number> {
    return this.tx(async (query) => {
      const { rows } = await query('SELECT account_id FROM leases WHERE instance = $1', [this.instance]);
      const ids = rows.map((r) => num(r.account_id));
      await lockLeasedAccounts(query, this.instance, ids);
      return this.#release(query, 'instance = $2', ids, [this.instance]);
    });
  }

  async reclaimExpired(): Promise<number> {
    return this.tx(async (query) => {
      const { rows } = await query('SELECT DISTINCT account_id FROM leases WHERE expires_at < now()');
      if (rows.length === 0) return 0;
      // Locked first, then the expiry checked again: a lease renewed meanwhile is not taken.
      const ids = rows.map((r) => num(r.account_id));
      await lockLeasedAccounts(query, this.instance, ids);
      return this.#release(query, 'expires_at < now()', ids);
    });
  }

  /** Deletes the leases of the `locked` accounts matching `where` and returns their money to available. */
  async #release(query: Query, where: string, locked: readonly number[], params: unknown[] = []): Promise<number> {
    if (locked.length === 0) return 0;
    const { rows } = await query(
      `WITH gone AS (DELETE FROM leases WHERE account_id = ANY($1::bigint[]) AND ${where} RETURNING account_id, amount),
            sums AS (SELECT account_id, SUM(amount) AS amount FROM gone GROUP BY account_id)
       UPDATE accounts a SET leased = a.leased - s.amount FROM sums s WHERE a.id = s.account_id RETURNING s.amount`,
      [locked, ...params],
    );
    return rows.reduce((sum, r) => sum + num(r.amount), 0);
  }

  async changedAccounts(since: string | null): Promise<{ accounts: AccountRecord[]; horizon: string }> {
    // One statement, one snapshot: the horizon is the oldest transaction that snapshot saw running, so a
    // write it did not see was made by a transaction at or after it (migration 14 stamps the rows).
    const { rows } = await this.query(
      `SELECT h.horizon::text AS horizon, a.* FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon) h
         LEFT JOIN accounts a ON $1::xid8 IS NULL OR a.written_by >= $1::xid8 ORDER BY a.id`,
      [since],
    );
    return { accounts: rows.filter((r) => r.id !== null).map(toAccount), horizon: String(rows[0]!.horizon) };
  }
}
