/**
 * Prompt-cache affinity: a key's requests for a model go first to the channel that served its last
 * one, so the upstream's prompt cache stays warm (for coding agents, most of the cost). Only among
 * the channels of the top priority, and forgotten as soon as that channel fails or is busy, so it
 * never holds back failover or the operator's priorities.
 */
import type { Channel } from './types.ts';

/** Keys x models remembered; the oldest is forgotten first. */
const MAX_ENTRIES = 50_000;

export class ChannelAffinity {
  readonly #last = new Map<string, number>();

  /** `ordered` with the remembered channel first, when it is there and of the first channel's priority. */
  apply(who: string, ordered: Channel[]): Channel[] {
    const id = this.#last.get(who);
    if (id === undefined || ordered.length < 2 || ordered[0]!.id === id) return ordered;
    const at = ordered.findIndex((c) => c.id === id);
    if (at === -1 || ordered[at]!.priority !== ordered[0]!.priority) return ordered;
    return [ordered[at]!, ...ordered.slice(0, at), ...ordered.slice(at + 1)];
  }

  served(who: string, channelId: number): void {
    this.#last.delete(who);
    this.#last.set(who, channelId);
    if (this.#last.size > MAX_ENTRIES) this.#last.delete(this.#last.keys().next().value!);
  }

  failed(who: string, channelId: number): void {
    if (this.#last.get(who) === channelId) this.#last.delete(who);
  }
}
