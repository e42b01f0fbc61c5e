/**
 * A small least-recently-used cache (no vscode import): going back to a spot shows its answer again
 * without a request. A Map keeps insertion order, so re-inserting on read makes the first key the oldest.
 */
export class LruCache<V> {
  readonly #max: number;
  readonly #entries = new Map<string, V>();

  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * The cache key of a request: the model and what it is shown near the cursor. The last 500 characters
 * before it and 200 after identify the spot; a change further away does not change the answer enough to
 * ask again.
 */
export function contextKey(model: string, path: string, prefix: string, suffix: string): string {
  return `${model}\u0000${path}\u0000${prefix.slice(-500)}\u0000${suffix.slice(0, 200)}`;
}
