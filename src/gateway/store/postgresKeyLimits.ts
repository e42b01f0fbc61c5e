/**
 * Key limits shared by the instances on one PostgreSQL database (the KeyLimitStore of types.ts; the
 * policy is accounts/sharedLimits.ts). Each instance keeps one row per key it serves: the requests it
 * may admit in the current minute (what it admitted plus its unused share) and the concurrent requests
 * it may hold. An exchange runs under one advisory lock every instance takes, so each sees the others'
 * rows as committed and no two hand out the same remainder: the rows of live instances never add up
 * to more than the key's limit. A row not refreshed for `liveMs` (a dead or cut-off instance) no
 * longer counts.
 */
import { InstanceRows } from './postgresQuery.ts';
import type { KeyClaim, KeyLimitStore, OthersClaims } from './instances.ts';

/** pg_advisory_xact_lock's key for the exchanges: "MGkl" as an integer. */
const EXCHANGE_LOCK = 0x4d476b6c;

export class PostgresKeyLimits extends InstanceRows implements KeyLimitStore {
  async exchange(window: number, keys: readonly number[], liveMs: number, decide: (others: ReadonlyMap<number, OthersClaims>) => KeyClaim[]): Promise<void> {
    await this.tx(async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [EXCHANGE_LOCK]);
      const { rows } = await query(
        `SELECT key_id, COALESCE(SUM(requests) FILTER (WHERE window_no = $3), 0)::float8 AS requests, SUM(slots)::float8 AS slots,
                (count(*) FILTER (WHERE wanting))::float8 AS wanting
           FROM key_limits WHERE instance <> $1 AND key_id = ANY($2::bigint[]) AND seen_at > now() - $4 * interval '1 millisecond'
          GROUP BY key_id`,
        [this.instance, keys, window, liveMs],
      );
      const others = new Map(rows.map((r) => [Number(r.key_id), { requests: Number(r.requests), slots: Number(r.slots), wanting: Number(r.wanting) }]));
      const claims = decide(others);
      // Our rows are refreshed every exchange (seen_at), whether or not they changed: they count while we live.
      await query(
        `INSERT INTO key_limits (instance, key_id, window_no, requests, slots, wanting, seen_at)
           SELECT $1, k, $2, r, s, w, now() FROM unnest($3::bigint[], $4::int[], $5::int[], $6::boolean[]) AS c(k, r, s, w)
         ON CONFLICT (instance, key_id) DO UPDATE SET window_no = excluded.window_no, requests = excluded.requests, slots = excluded.slots,
           wanting = excluded.wanting, seen_at = excluded.seen_at`,
        [this.instance, window, claims.map((c) => c.keyId), claims.map((c) => c.requests), claims.map((c) => c.slots), claims.map((c) => c.wanting)],
      );
    });
  }

  async forget(keys: readonly number[] | 'all'): Promise<void> {
    if (keys === 'all') await this.query('DELETE FROM key_limits WHERE instance = $1', [this.instance]);
    else if (keys.length > 0) await this.query('DELETE FROM key_limits WHERE instance = $1 AND key_id = ANY($2::bigint[])', [this.instance, keys]);
  }

  async sweep(olderThanMs: number): Promise<void> {
    await this.query(`DELETE FROM key_limits WHERE seen_at < now() - $1 * interval '1 millisecond'`, [olderThanMs]);
  }
}
