/**
 * The upstream connection pools of one gateway: one undici dispatcher per channel, kept alive between
 * requests: a Pool to the upstream's origin, or a ProxyAgent when the channel goes through an HTTP proxy.
 * Keyed by channel id; a changed base URL, proxy or connect timeout replaces (and closes) the old one,
 * so edits made through the CLI take effect on the next request. Owned by the gateway instance and
 * closed by its stop: two gateways in one process share no connection.
 */
import type { Dispatcher } from 'undici';
import { Pool, ProxyAgent } from './undici.ts';
import type { Channel } from './types.ts';

interface Entry {
  readonly key: string;
  readonly dispatcher: Dispatcher;
}

/** Upstream keep-alive: reuse idle sockets for a while, but never beyond what the upstream announces. */
const KEEP_ALIVE_MS = 30_000;

function closeQuietly(dispatcher: Dispatcher): Promise<void> {
  // A pool that fails to close has nothing left to give back: its sockets are gone either way.
  return dispatcher.close().catch(() => undefined);
}

export class UpstreamPools {
  readonly #entries = new Map<number, Entry>();
  #closed = false;

  dispatcherFor(channel: Channel, origin: string): Dispatcher {
    if (this.#closed) throw new Error('the gateway is stopping: no new upstream connections');
    const key = `${origin}|${channel.proxy ?? ''}|${channel.timeouts.connectMs}`;
    const existing = this.#entries.get(channel.id);
    if (existing && existing.key === key) return existing.dispatcher;
    if (existing) void closeQuietly(existing.dispatcher);
    const common = {
      connect: { timeout: channel.timeouts.connectMs },
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: 10 * KEEP_ALIVE_MS,
      // Per-request values (first byte, idle) are passed with each request; these are backstops.
      headersTimeout: channel.timeouts.firstByteMs,
      bodyTimeout: channel.timeouts.idleMs,
    };
    const dispatcher: Dispatcher = channel.proxy ? new ProxyAgent({ uri: channel.proxy, ...common }) : new Pool(origin, common);
    this.#entries.set(channel.id, { key, dispatcher });
    return dispatcher;
  }

  /** How many upstream pools are open (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Closes every upstream connection (graceful gateway stop). */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => closeQuietly(e.dispatcher)));
  }
}
