/**
 * Failover with memory (a circuit breaker per channel): after 3 failures in a row a channel is
 * skipped for a cool-down, 30 s and doubling with each failed probe up to 5 minutes; once it is
 * over, requests try it again (half-open) and the first success closes it. Skipping never leaves a
 * request with no channel at all: when every one is cooling down, they are tried anyway, the one
 * whose cool-down ends first leading.
 */
import type { Channel } from './types.ts';

export const FAILURES_TO_OPEN = 3;
const FIRST_COOLDOWN_MS = 30_000;
const MAX_COOLDOWN_MS = 5 * 60_000;

interface State {
  failures: number;
  cooldownMs: number;
  openUntil: number;
  lastFailure: string;
}

export interface ChannelHealthView {
  readonly failures: number;
  /** Skipped until then (epoch ms); 0 when the channel is in use. */
  readonly openUntil: number;
  readonly lastFailure: string;
}

export class ChannelHealth {
  readonly #states = new Map<number, State>();
  readonly #log: (line: string) => void;
  readonly #failuresToOpen: number;

  /** `failuresToOpen`: failures in a row that take a channel out for a while; 0 never does. */
  constructor(log: (line: string) => void = () => undefined, failuresToOpen = FAILURES_TO_OPEN) {
    this.#log = log;
    this.#failuresToOpen = failuresToOpen;
  }

  /** `ordered` without the channels cooling down, unless that would leave none. */
  usable(ordered: Channel[], now = Date.now()): Channel[] {
    if (this.#states.size === 0) return ordered;
    const open = (c: Channel): boolean => (this.#states.get(c.id)?.openUntil ?? 0) > now;
    const closed = ordered.filter((c) => !open(c));
    if (closed.length > 0) return closed.length === ordered.length ? ordered : closed;
    return [...ordered].sort((a, b) => this.#states.get(a.id)!.openUntil - this.#states.get(b.id)!.openUntil);
  }

  failed(channel: Channel, reason: string, now = Date.now()): void {
    if (this.#failuresToOpen <= 0) return;
    const state = this.#states.get(channel.id) ?? { failures: 0, cooldownMs: 0, openUntil: 0, lastFailure: '' };
    state.failures++;
    state.lastFailure = reason;
    if (state.failures >= this.#failuresToOpen) {
      state.cooldownMs = state.cooldownMs === 0 ? FIRST_COOLDOWN_MS : Math.min(state.cooldownMs * 2, MAX_COOLDOWN_MS);
      state.openUntil = now + state.cooldownMs;
      this.#log(`channel "${channel.name}" failed ${state.failures} times in a row (last: ${reason}): skipped for ${state.cooldownMs / 1000} s, then tried again`);
    }
    this.#states.set(channel.id, state);
  }

  succeeded(channel: Channel): void {
    const state = this.#states.get(channel.id);
    if (!state) return;
    if (state.failures >= this.#failuresToOpen) this.#log(`channel "${channel.name}" answers again: back in use`);
    this.#states.delete(channel.id);
  }

  /** Forgets what the channel did (an admin changed or enabled it): the next request tries it at once. */
  forget(channelId: number): void {
    this.#states.delete(channelId);
  }

  view(channelId: number): ChannelHealthView | null {
    const state = this.#states.get(channelId);
    return state ? { failures: state.failures, openUntil: state.openUntil, lastFailure: state.lastFailure } : null;
  }
}
