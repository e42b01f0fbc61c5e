import assert from 'node:assert/strict';
import { orderChannels } from '../../../src/gateway/relay/order.ts';
import { relayChannel } from '../../support/channels.ts';
import type { Channel } from '../../../src/gateway/relay/types.ts';

const ch = (name: string, priority: number, weight: number): Channel => relayChannel({ name, priority, weight });

/** A deterministic random source. */
function seeded(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('orderChannels', () => {
  it('puts higher priority first, always', () => {
    const channels = [ch('low', 1, 1000), ch('high', 9, 1), ch('mid', 5, 1), ch('mid2', 5, 1)];
    const random = seeded(1);
    for (let i = 0; i < 100; i++) {
      const names = orderChannels(channels, random).map((c) => c.name);
      assert.equal(names[0], 'high');
      assert.deepEqual(new Set(names.slice(1, 3)), new Set(['mid', 'mid2']));
      assert.equal(names[3], 'low');
    }
  });

  it('within one priority, picks first in proportion to weight; zero weight goes last', () => {
    const channels = [ch('a', 0, 1), ch('b', 0, 3), ch('z', 0, 0)];
    const random = seeded(42);
    const first = { a: 0, b: 0, z: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) {
      const order = orderChannels(channels, random);
      first[order[0]!.name]!++;
      assert.equal(order[2]!.name, 'z');
    }
    assert.equal(first['z'], 0);
    const share = first['b']! / 4000;
    assert.ok(share > 0.7 && share < 0.8, `b first ${share}`);
  });

  it('keeps every channel exactly once', () => {
    const channels = [ch('a', 0, 0), ch('b', 0, 0), ch('c', 1, 2)];
    assert.deepEqual(orderChannels(channels, seeded(3)).map((c) => c.name).sort(), ['a', 'b', 'c']);
  });
});
