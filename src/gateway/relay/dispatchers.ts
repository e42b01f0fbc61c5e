/**
 * One shared undici dispatcher per channel, kept alive between requests: a Pool to the
 * upstream's origin, or a ProxyAgent when the channel goes through an HTTP proxy.
 * Keyed by channel id; a changed base URL, proxy or connect timeout replaces (and closes)
 * the old one, so edits made through the CLI take effect on the next request.
 */
import type { Dispatcher } from 'undici';
import { Pool, ProxyAgent } from './undici.ts';
import type { Channel } from './types.ts';

interface Entry {
  readonly key: string;
  readonly dispatcher: Dispatcher;
}

const entries = new Map<number, Entry>();

/** Upstream keep-alive: reuse idle sockets for a while, but never beyond what the upstream announces. */
const KEEP_ALIVE_MS = 30_000;

export function dispatcherFor(channel: Channel, origin: string): Dispatcher {
  const key = `${origin}|${channel.proxy ?? ''}|${channel.timeouts.connectMs}`;
  const existing = entries.get(channel.id);
  if (existing && existing.key === key) return existing.dispatcher;
  if (existing) void existing.dispatcher.close().catch(() => {});
  const common = {
    connect: { timeout: channel.timeouts.connectMs },
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 10 * KEEP_ALIVE_MS,
    // Per-request values (first byte, idle) are passed with each request; these are backstops.
    headersTimeout: channel.timeouts.firstByteMs,
    bodyTimeout: channel.timeouts.idleMs,
  };
  const dispatcher: Dispatcher = channel.proxy ? new ProxyAgent({ uri: channel.proxy, ...common }) : new Pool(origin, common);
  entries.set(channel.id, { key, dispatcher });
  return dispatcher;
}

/** Closes every upstream connection (graceful server stop, end of a test run). */
export async function closeUpstreams(): Promise<void> {
  const all = [...entries.values()];
  entries.clear();
  await Promise.all(all.map((e) => e.dispatcher.close().catch(() => {})));
}
