/**
 * Requests without a valid key cost nothing to send, so a flood of them must not grow the request
 * log: per source address and minute, the first few are logged in full (a sample to look at), the
 * rest only counted, and the count goes to the operator's log once that minute is over.
 */

/** Logged in full per source and minute, unless the gateway is told otherwise. */
export const SAMPLE_PER_MINUTE = 10;
/** Sources tracked per minute; past it, the others share one counter (the map cannot grow without bound). */
const MAX_SOURCES = 10_000;
const OTHERS = 'other sources';

export class UnauthenticatedSampler {
  readonly #report: (line: string) => void;
  readonly #sample: number;
  #minute = -1;
  #seen = new Map<string, number>();

  constructor(report: (line: string) => void, sample = SAMPLE_PER_MINUTE) {
    this.#report = report;
    this.#sample = sample;
  }

  /** Whether this unauthenticated request from `source` is logged in full. */
  admit(source: string, now = Date.now()): boolean {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#minute) this.flush(minute);
    const key = this.#seen.has(source) || this.#seen.size < MAX_SOURCES ? source : OTHERS;
    const count = (this.#seen.get(key) ?? 0) + 1;
    this.#seen.set(key, count);
    return count <= this.#sample;
  }

  /** Reports the minute that ended (only sources past the sample), and starts `minute`. */
  flush(minute = -1): void {
    for (const [source, count] of this.#seen) {
      if (count > this.#sample) {
        this.#report(`${count} requests without a valid key from ${source} in the minute from ${new Date(this.#minute * 60_000).toISOString()}: the first ${this.#sample} are in the request log, the rest only counted here`);
      }
    }
    this.#seen = new Map();
    this.#minute = minute;
  }
}
