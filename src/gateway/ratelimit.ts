/**
 * Per-key limits, in memory: a token bucket for requests per minute, a counter for concurrent requests.
 * One process's (SQLite, memory); on a database several instances share, accounts/sharedLimits.ts
 * holds them across instances behind the same two interfaces.
 */

/** 'unavailable': the limit is shared and its database cannot be reached. */
export interface RequestRateLimit {
  /** 0 when the request is allowed, else the seconds to wait (≥ 1). */
  take(keyId: number, perMinute: number): number | 'unavailable' | Promise<number | 'unavailable'>;
}

export interface ConcurrencyLimit {
  /** True (and counted) when the key is under its limit; pair every true with release(). */
  acquire(keyId: number, limit: number): boolean | 'unavailable' | Promise<boolean | 'unavailable'>;
  release(keyId: number): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter implements RequestRateLimit {
  readonly #buckets = new Map<number, Bucket>();

  /** Takes one request from the key's bucket. Returns 0 when allowed, else the seconds to wait (≥ 1). */
  take(keyId: number, perMinute: number, now = Date.now()): number {
    if (perMinute <= 0) return 0;
    const ratePerMs = perMinute / 60_000;
    const bucket = this.#buckets.get(keyId) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + Math.max(0, now - bucket.at) * ratePerMs);
    bucket.at = now;
    this.#buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
  }
}

export class ConcurrencyLimiter implements ConcurrencyLimit {
  readonly #active = new Map<number, number>();

  /** True (and counted) when the key is under its limit; pair every true with release(). */
  acquire(keyId: number, limit: number): boolean {
    const active = this.#active.get(keyId) ?? 0;
    if (limit > 0 && active >= limit) return false;
    this.#active.set(keyId, active + 1);
    return true;
  }

  release(keyId: number): void {
    const active = (this.#active.get(keyId) ?? 1) - 1;
    if (active <= 0) this.#active.delete(keyId);
    else this.#active.set(keyId, active);
  }

  active(keyId: number): number {
    return this.#active.get(keyId) ?? 0;
  }
}
