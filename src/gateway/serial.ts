/** Runs async jobs one at a time, in order: keeps a snapshot reload from interleaving with a batch write. */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(job, job);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
