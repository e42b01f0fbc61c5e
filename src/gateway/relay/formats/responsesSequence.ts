/**
 * The sequence_number of a Responses stream's events, per answer: every event the client gets carries the next
 * one, whoever writes it: the shapers (converted from chat, or an upstream's own numbers passed through), the
 * gateway's own events in a passed-through stream (the cut's response.incomplete), and the error and
 * response.failed that end a broken stream (respond.ts), which have no shaper at hand. Keyed by the answer, so
 * it goes with it.
 */
import type { ServerResponse } from 'node:http';

const next = new WeakMap<ServerResponse, number>();

/** The number for the event about to be written to `res`. */
export function takeSequence(res: ServerResponse): number {
  const n = next.get(res) ?? 0;
  next.set(res, n + 1);
  return n;
}

/** An event written with the upstream's own number `n`: the gateway's next one follows it. */
export function sawSequence(res: ServerResponse, n: number): void {
  if (n >= (next.get(res) ?? 0)) next.set(res, n + 1);
}
