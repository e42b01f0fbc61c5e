/**
 * The request path's view of the store, in memory: keys by hash, channels, models, the gateway
 * settings, and the ledger's balances. `refresh()` asks the store (cheaply) whether anything changed, for example
 * the CLI disabling a key or topping up while the server runs, and reloads when it did.
 */
import type { Channel } from './relay/types.ts';
import type { Ledger } from './accounts/ledger.ts';
import type { Serial } from './serial.ts';
import type { AccountRecord, ChannelRecord, KeyRecord, ModelRecord, Snapshot, Store } from './store/types.ts';
import { hashKey } from './keys.ts';
import { settingsOf, type AdminSettings } from './settings.ts';
import { channelServesKind, compareNames } from '../contract/index.ts';

/**
 * Most secrets the gateway sees recently: a SHA-256 per request was ~1.5% of the gateway's CPU at
 * full load. Bounded (cleared when full) so that a client trying many secrets cannot grow it.
 */
const SECRET_CACHE_SIZE = 1024;

export function toRelayChannel(c: ChannelRecord): Channel {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    baseUrl: c.baseUrl,
    apiKey: c.apiKey,
    models: new Map(Object.entries(c.models)),
    priority: c.priority,
    weight: c.weight,
    timeouts: { connectMs: Math.min(c.timeoutMs, 10_000), firstByteMs: c.timeoutMs, idleMs: c.timeoutMs },
    proxy: c.proxy,
    responsesApi: c.type === 'openai' && (c.responsesApi ?? isOpenai(c.baseUrl)),
  };
}

/** OpenAI's own API, which has every endpoint (Responses included). */
export function isOpenai(baseUrl: string | null): boolean {
  return baseUrl !== null && /^https?:\/\/api\.openai\.com(?:[:/]|$)/i.test(baseUrl);
}

/** A model some enabled channel serves, with the first such channel and its price (if set). */
export interface ServableModel {
  readonly name: string;
  readonly channel: ChannelRecord;
  readonly model: ModelRecord;
}

export type ModelLookup =
  | { readonly kind: 'unknown' }
  /** A channel serves it but the operator has not priced it (zero counts as a price): not served until they do. */
  | { readonly kind: 'unpriced' }
  /** `unfit`: enabled channels that list the model but whose type cannot serve its kind (an anthropic channel, an embedding model). */
  | { readonly kind: 'known'; readonly model: ModelRecord; readonly channels: readonly Channel[]; readonly unfit: readonly Channel[] };

export class Catalog {
  readonly #store: Store;
  readonly #ledger: Ledger;
  readonly #serial: Serial;
  #keysByHash = new Map<string, KeyRecord>();
  #keysById = new Map<number, KeyRecord>();
  /** Where the next reload starts (Store.snapshot): only what was written since is read; null: everything. */
  #cursor: string | null = null;
  /**
   * Presented secret -> its key, for keys found by hash; replaced with every reload, so a key the
   * CLI disables or deletes is seen on the next request. Memory only: secrets are never stored or logged.
   */
  #keysBySecret = new Map<string, KeyRecord>();
  #accounts = new Map<number, AccountRecord>();
  #channels: ChannelRecord[] = [];
  #relayChannels: Channel[] = [];
  #models = new Map<string, ModelRecord>();
  /** lookup()'s answers until the next reload, for the names the catalogue knows (a client's unknown names are not kept). */
  #lookups = new Map<string, ModelLookup>();
  #settings: AdminSettings = settingsOf({});
  #reloading: Promise<void> | null = null;
  /**
   * Told of the keys at every reload (the keys' usage drops the state of keys that lost their limits):
   * every key (`removed` null), or those written since the last reload and the ids of those deleted.
   */
  onKeys: ((keys: readonly KeyRecord[], removed: readonly number[] | null) => void) | null = null;
  /** A reload failed: try again on the next request even if the store reports no new change. */
  #stale = false;

  constructor(store: Store, ledger: Ledger, serial: Serial) {
    this.#store = store;
    this.#ledger = ledger;
    this.#serial = serial;
  }

  /**
   * Reloads when the store changed since the last call; cheap otherwise. Returns null when nothing
   * is to be waited for (nearly every request): the caller then goes on synchronously, with no promise.
   */
  refresh(): Promise<void> | null {
    if (this.#reloading) return this.#reloading;
    if (!this.#store.changedSinceLastCheck() && !this.#stale) return null;
    return this.#reload();
  }

  /**
   * Refreshes until nothing is left to reload: a change this process just made is then in (a reload
   * already under way when it was made may predate it, and is followed by one more).
   */
  async settled(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const reloading = this.refresh();
      if (!reloading) return;
      await reloading;
    }
  }

  async #reload(): Promise<void> {
    this.#stale = true;
    this.#reloading = this.#serial.run(async () => {
      // The settings are read with the snapshot: any change (a CLI's, another instance's) reloads both.
      const [snap, stored] = await Promise.all([this.#store.snapshot(this.#cursor), this.#store.settings.read()]);
      if (snap.removedKeys) this.#apply(snap, snap.removedKeys);
      else this.#replace(snap);
      this.#cursor = snap.cursor ?? null;
      this.#keysBySecret = new Map();
      this.#channels = [...snap.channels];
      this.#relayChannels = this.#channels.map(toRelayChannel);
      // A price the store holds that no request could be charged by (negative, fractional: written around the
      // CLI and console) leaves its model unpriced: refused with the fix named, never served at a wrong price.
      this.#models = new Map(snap.models.filter(hasChargeablePrices).map((m) => [m.name, m]));
      this.#lookups = new Map();
      this.#settings = settingsOf(stored);
      this.#stale = false;
    });
    try {
      await this.#reloading;
    } finally {
      this.#reloading = null;
    }
  }

  /** A whole snapshot: every account and key. */
  #replace(snap: Snapshot): void {
    this.#keysById = new Map(snap.keys.map((k) => [k.id, k]));
    this.#keysByHash = new Map(snap.keys.map((k) => [k.hash, k]));
    this.#accounts = new Map(snap.accounts.map((a) => [a.id, a]));
    this.#ledger.load(snap.accounts);
    this.onKeys?.(snap.keys, null);
  }

  /** The accounts and keys written since the last reload, and the keys deleted since. */
  #apply(snap: Snapshot, removed: readonly number[]): void {
    for (const id of removed) this.#dropKey(id);
    for (const key of snap.keys) {
      this.#dropKey(key.id);
      this.#keysById.set(key.id, key);
      this.#keysByHash.set(key.hash, key);
    }
    for (const a of snap.accounts) this.#accounts.set(a.id, a);
    this.#ledger.refresh(snap.accounts);
    this.onKeys?.(snap.keys, removed);
  }

  #dropKey(id: number): void {
    const old = this.#keysById.get(id);
    if (!old) return;
    this.#keysById.delete(id);
    // A rotated key's old secret must stop working: its hash goes with it.
    if (this.#keysByHash.get(old.hash) === old) this.#keysByHash.delete(old.hash);
  }

  /** The gateway settings as of the last reload (refresh() first, for the latest). */
  /** Every channel, enabled or not, as last loaded. */
  get channels(): readonly ChannelRecord[] {
    return this.#channels;
  }

  get settings(): AdminSettings {
    return this.#settings;
  }

  keyByHash(hash: string): KeyRecord | undefined {
    return this.#keysByHash.get(hash);
  }

  /** The key whose secret this is: keyByHash(hashKey(secret)), remembered until the next reload. */
  keyBySecret(secret: string): KeyRecord | undefined {
    const cached = this.#keysBySecret.get(secret);
    if (cached) return cached;
    const key = this.#keysByHash.get(hashKey(secret));
    if (key) {
      if (this.#keysBySecret.size >= SECRET_CACHE_SIZE) this.#keysBySecret.clear();
      this.#keysBySecret.set(secret, key);
    }
    return key;
  }

  account(id: number): AccountRecord | undefined {
    return this.#accounts.get(id);
  }

  /** Known = priced in the catalogue; channels = the enabled ones serving it. Every request asks: answered from memory. */
  lookup(name: string): ModelLookup {
    let found = this.#lookups.get(name);
    if (!found) {
      found = this.#lookUp(name);
      if (found.kind !== 'unknown') this.#lookups.set(name, found);
    }
    return found;
  }

  #lookUp(name: string): ModelLookup {
    const priced = this.#models.get(name);
    let served = false;
    const channels: Channel[] = [];
    const unfit: Channel[] = [];
    this.#channels.forEach((c, i) => {
      if (!Object.hasOwn(c.models, name)) return;
      served = true;
      if (c.status !== 'enabled' || c.unreadable) return;
      if (!priced || channelServesKind(c.type, priced.kind)) channels.push(this.#relayChannels[i]!);
      else unfit.push(this.#relayChannels[i]!);
    });
    if (priced) return { kind: 'known', model: priced, channels, unfit };
    return served ? { kind: 'unpriced' } : { kind: 'unknown' };
  }

  /** The models `key` may use, by name: servable, and on its allow-list when it has one. */
  modelsForKey(key: KeyRecord): ServableModel[] {
    const allowed = key.models ? new Set(key.models) : null;
    return this.servable()
      .filter((m) => !allowed || allowed.has(m.name))
      .sort((a, b) => compareNames(a.name, b.name));
  }

  /** Every priced model an enabled channel serves, with its first serving channel and catalogue entry. */
  servable(): ServableModel[] {
    const out = new Map<string, ServableModel>();
    for (const c of this.#channels) {
      if (c.status !== 'enabled' || c.unreadable) continue;
      for (const name of Object.keys(c.models)) {
        const model = this.#models.get(name);
        if (model && !out.has(name) && channelServesKind(c.type, model.kind)) out.set(name, { name, channel: c, model });
      }
    }
    return [...out.values()];
  }
}

/** Whether every price of a model is a whole number of micro-USD, 0 or more. */
function hasChargeablePrices(m: ModelRecord): boolean {
  const prices = [m.inputPrice, m.outputPrice, m.imagePrice, m.cachedInputPrice, m.cacheWritePrice, ...Object.values(m.imagePrices ?? {})];
  return prices.every((p) => p === null || p === undefined || (Number.isSafeInteger(p) && p >= 0));
}
