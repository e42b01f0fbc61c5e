/**
 * The order in which channels are tried: higher priority first; within one priority a
 * weighted random permutation (a channel with twice the weight is twice as likely to go
 * first). Weights of zero or less go last within their priority, in random order.
 */
import type { Channel } from './types.ts';

export function orderChannels(channels: readonly Channel[], random: () => number = Math.random): Channel[] {
  if (channels.length <= 1) return [...channels];
  const byPriority = new Map<number, Channel[]>();
  for (const channel of channels) {
    const group = byPriority.get(channel.priority);
    if (group) group.push(channel);
    else byPriority.set(channel.priority, [channel]);
  }
  const priorities = [...byPriority.keys()].sort((a, b) => b - a);
  const ordered: Channel[] = [];
  for (const priority of priorities) ordered.push(...weightedShuffle(byPriority.get(priority)!, random));
  return ordered;
}

function weightedShuffle(group: Channel[], random: () => number): Channel[] {
  if (group.length === 1) return group;
  const remaining = [...group];
  const out: Channel[] = [];
  while (remaining.length > 0) {
    const total = remaining.reduce((sum, c) => sum + Math.max(0, c.weight), 0);
    let index: number;
    if (total <= 0) index = Math.floor(random() * remaining.length);
    else {
      let point = random() * total;
      index = remaining.findIndex((c) => (point -= Math.max(0, c.weight)) < 0);
      if (index === -1) index = remaining.findLastIndex((c) => c.weight > 0);
    }
    out.push(remaining.splice(index, 1)[0]!);
  }
  return out;
}
