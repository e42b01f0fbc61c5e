/**
 * Memory for request bodies being received, shared by every request of a gateway: each body is
 * bounded on its own (maxBytes), and this bounds them together, so that many slow uploads at once
 * cannot hold the process's memory. A body that does not fit is refused (503, retry), not queued.
 */
export class BodyBudget {
  readonly #limit: number;
  #used = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Takes `bytes` when they fit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.#limit) return false;
    this.#used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }

  get used(): number {
    return this.#used;
  }
}
