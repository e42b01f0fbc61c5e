/** The one channel fixture: a channel as the CLI adds it, and the same channel as the relay sees it. */
import { toRelayChannel } from '../../src/gateway/catalog.ts';
import type { Channel } from '../../src/gateway/relay/types.ts';
import type { NewChannel, Store } from '../../src/gateway/store/types.ts';

let next = 1;

/** An OpenAI-style channel serving model `m`, with a unique name and key; override what the test is about. */
export function newChannel(overrides: Partial<NewChannel> = {}): NewChannel {
  const n = next++;
  return {
    name: `ch-${n}`,
    type: 'openai',
    baseUrl: null,
    apiKey: `sk-upstream-${n}`,
    models: { m: 'm' },
    priority: 0,
    weight: 1,
    timeoutMs: 10_000,
    proxy: null,
    ...overrides,
  };
}

/** The relay's view of `newChannel(overrides)`, for unit tests of relay parts. */
export function relayChannel(overrides: Partial<NewChannel> = {}): Channel {
  return toRelayChannel({ id: next, status: 'enabled', createdAt: 0, ...newChannel(overrides) });
}

/**
 * Adds `channel` and prices, free, each of its models that has no price yet: a model with no price
 * is not served (hardening item 7), and these tests are about something else.
 */
export async function addChannelPricedFree(store: Store, channel: NewChannel): Promise<void> {
  await store.addChannel(channel);
  const priced = new Set((await store.listModels()).map((m) => m.name));
  for (const name of Object.keys(channel.models)) {
    if (!priced.has(name)) await store.setModel({ name, kind: 'chat', inputPrice: 0, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null });
  }
}
