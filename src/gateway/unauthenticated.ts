/**
 * Requests without a valid key cost nothing to send, so a flood of them must not grow the request
 * log: per source address and minute, the first few are logged in full (a sample to look at), the
 * rest only counted, and the count goes to the operator's log once that minute is over.
 */

import { networkOf } from './store/keySettings.ts';

/** Logged in full per source and minute, unless the gateway is told otherwise. */
export const SAMPLE_PER_MINUTE = 10;
/** Sources tracked per minute; past it, the others share one counter (the map cannot grow without bound). */
const MAX_SOURCES = 10_000;
const OTHERS = 'other sources';
/** Logged in full per minute from all sources together: many sources (a botnet) cannot multiply the sample. */
const MAX_LOGGED_PER_MINUTE = 1000;

export class UnauthenticatedSampler {
  readonly #report: (line: string) => void;
  readonly #sample: number;
  #minute = -1;
  #seen = new Map<string, number>();
  #logged = 0;

  constructor(report: (line: string) => void, sample = SAMPLE_PER_MINUTE) {
    this.#report = report;
    this.#sample = sample;
  }

  /** Whether this unauthenticated request from `address` is logged in full (counted by its network: an IPv6 /64). */
  admit(address: string, now = Date.now()): boolean {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#minute) this.flush(minute);
    const source = networkOf(address);
    const key = this.#seen.has(source) || this.#seen.size < MAX_SOURCES ? source : OTHERS;
    const count = (this.#seen.get(key) ?? 0) + 1;
    this.#seen.set(key, count);
    if (count > this.#sample || this.#logged >= MAX_LOGGED_PER_MINUTE) return false;
    this.#logged++;
    return true;
  }

  /** Reports the minute that ended (only sources past the sample), and starts `minute`. */
  flush(minute = -1): void {
    if (this.#logged >= MAX_LOGGED_PER_MINUTE) {
      const all = [...this.#seen.values()].reduce((sum, n) => sum + n, 0);
      this.#report(`${all} requests without a valid key in the minute from ${new Date(this.#minute * 60_000).toISOString()}: the first ${MAX_LOGGED_PER_MINUTE} of all sources are in the request log`);
    }
    for (const [source, count] of this.#seen) {
      if (count > this.#sample) {
        this.#report(`${count} requests without a valid key from ${source} in the minute from ${new Date(this.#minute * 60_000).toISOString()}: the first ${this.#sample} are in the request log, the rest only counted here`);
      }
    }
    this.#seen = new Map();
    this.#logged = 0;
    this.#minute = minute;
  }
}
