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

/**
 * The request deadline for bodies still arriving, checked by one timer for all of them: a timer per
 * request (created and cleared on every request, nearly all of which arrive at once) cost the
 * request path more than the rare slow upload it is for.
 */
export class BodyDeadlines {
  readonly #pending = new Map<() => void, number>();
  #timer: NodeJS.Timeout | null = null;
  readonly #checkMs: number;

  constructor(checkMs: number) {
    this.#checkMs = checkMs;
  }

  /** Calls `expire` once `deadline` (performance.now() time) has passed, unless the returned cancel is called first. */
  watch(deadline: number, expire: () => void): () => void {
    this.#pending.set(expire, deadline);
    this.#timer ??= setInterval(() => this.#check(), this.#checkMs).unref();
    return () => {
      this.#pending.delete(expire);
    };
  }

  #check(): void {
    const now = performance.now();
    for (const [expire, deadline] of this.#pending) {
      if (deadline <= now) {
        this.#pending.delete(expire);
        expire();
      }
    }
    if (this.#pending.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }
}
