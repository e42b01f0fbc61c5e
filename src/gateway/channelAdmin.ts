/**
 * What an admin does to channels, the one way the CLI (`channel add|test|disable|enable|remove`) and the
 * admins' console do it: the rules across a channel's settings (an upstream needs a base URL, the
 * Responses flag is for openai channels, a channel serves at least one model), checked on the settings
 * as they will be after the change; each change written by the store with its audit row under the actor's
 * name. The audit row holds the settings and whether a key was set or replaced, never the key itself.
 */
import { channelServesKind, shownUrl, type ChannelType, type ModelKind } from '../contract/index.ts';
import { auditEntry, InvalidSetting, type Acting, type FieldName } from './accounts/userAdmin.ts';
import { StoreError, type ChannelChanges, type ChannelRecord, type Store } from './store/types.ts';

/** A channel's settings: everything but its name, its key and its status. */
export interface ChannelSettings {
  readonly type: ChannelType;
  readonly baseUrl: string | null;
  /** Platform model name -> upstream model name. */
  readonly models: Readonly<Record<string, string>>;
  readonly priority: number;
  readonly weight: number;
  readonly timeoutMs: number;
  readonly proxy: string | null;
  readonly responsesApi: boolean | null;
}

/** The fields the rules across settings name (as the console's API does; the CLI names its flags). */
export type ChannelField = 'base_url' | 'models' | 'responses_api' | 'model';

const asIs: FieldName<ChannelField> = (field) => field;

/** `settings` as they may be stored (an echo channel has no base URL), or InvalidSetting naming the field. */
export function checkChannelSettings(settings: ChannelSettings, name: FieldName<ChannelField> = asIs): ChannelSettings {
  if (Object.keys(settings.models).length === 0) throw new InvalidSetting(`${name('models')} is required: the platform model names the channel serves`);
  if (settings.type !== 'echo' && settings.baseUrl === null) throw new InvalidSetting(`${name('base_url')} is required for ${settings.type} channels`);
  if (settings.responsesApi !== null && settings.type !== 'openai') throw new InvalidSetting(`${name('responses_api')} applies to openai channels only`);
  const base = settings.baseUrl ? URL.parse(settings.baseUrl) : null;
  if (base && (base.username || base.password)) {
    throw new InvalidSetting(`${name('base_url')} must not carry a user or password: they are not sent upstream; give the upstream's key as the channel's key`);
  }
  return settings.type === 'echo' ? { ...settings, baseUrl: null } : settings;
}

/** The channel called `name`, or not found. */
export async function channelNamed(store: Store, name: string): Promise<ChannelRecord> {
  const found = (await store.listChannels()).find((c) => c.name === name);
  if (!found) throw new StoreError('not_found', `no channel named "${name}"`);
  return found;
}

/** The models of `channel` that have no price yet (not served until priced). */
export async function unpricedModels(store: Store, channel: ChannelRecord): Promise<string[]> {
  const priced = new Set((await store.listModels()).map((m) => m.name));
  return Object.keys(channel.models).filter((m) => !priced.has(m));
}

/** The models of `channel` priced as a kind its type cannot serve (an embedding model on an anthropic channel), with that kind. */
export async function unfitModels(store: Store, channel: ChannelRecord): Promise<string[]> {
  const kinds = new Map((await store.listModels()).map((m) => [m.name, m.kind]));
  return Object.keys(channel.models).flatMap((name) => {
    const kind = kinds.get(name);
    return kind && !channelServesKind(channel.type, kind) ? [`${name} (${kind})`] : [];
  });
}

/** The enabled channels that list `model` but cannot serve `kind`, when no enabled channel can: the model would not be served. */
export async function channelsUnfitFor(store: Store, model: string, kind: ModelKind): Promise<ChannelRecord[]> {
  const listing = (await store.listChannels()).filter((c) => c.status === 'enabled' && Object.hasOwn(c.models, model));
  return listing.some((c) => channelServesKind(c.type, kind)) ? [] : listing;
}

/** Settings as the audit row keeps them: the URLs' passwords and query values masked, like the key. */
function shownUrls<T extends { baseUrl?: string | null | undefined; proxy?: string | null | undefined }>(settings: T): T {
  const shown = (url: string | null | undefined) => (typeof url === 'string' ? shownUrl(url) : url);
  return { ...settings, ...('baseUrl' in settings ? { baseUrl: shown(settings.baseUrl) } : {}), ...('proxy' in settings ? { proxy: shown(settings.proxy) } : {}) };
}

/** Adds a channel (enabled) with its audit row. `apiKey` null: the upstream takes none. */
export async function addChannel(store: Store, name: string, apiKey: string | null, settings: ChannelSettings, acting: Acting, field?: FieldName<ChannelField>): Promise<ChannelRecord> {
  const checked = checkChannelSettings(settings, field);
  return store.addChannel({ name, apiKey, ...checked }, auditEntry(acting, 'channel.add', name, { ...shownUrls(checked), upstream_key: apiKey === null ? 'none' : 'set' }));
}

/**
 * Changes the settings given (the others stay) and, when `apiKey` is given, the key: a new one replaces
 * it, null removes it. Returns the channel as it now is.
 */
export async function updateChannel(store: Store, name: string, changes: ChannelChanges, acting: Acting, field?: FieldName<ChannelField>): Promise<ChannelRecord> {
  const current = await channelNamed(store, name);
  const { apiKey, ...given } = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ChannelChanges;
  if (Object.keys(given).length === 0 && apiKey === undefined) throw new InvalidSetting('nothing to change: give at least one setting or a new key');
  const { type, baseUrl, models, priority, weight, timeoutMs, proxy } = current;
  const after = checkChannelSettings({ type, baseUrl, models, priority, weight, timeoutMs, proxy, responsesApi: current.responsesApi ?? null, ...given }, field);
  const settings = after.type === 'echo' && (given.baseUrl !== undefined || current.baseUrl !== null) ? { ...given, baseUrl: null } : given;
  const key = apiKey === undefined ? {} : { upstream_key: apiKey === null ? 'removed' : 'replaced' };
  return store.updateChannel(name, { ...settings, ...(apiKey === undefined ? {} : { apiKey }) }, auditEntry(acting, 'channel.update', name, { ...shownUrls(settings), ...key }));
}

/** Enables or disables a channel: a disabled one serves nothing until enabled again. */
export async function setChannelEnabled(store: Store, name: string, enabled: boolean, acting: Acting): Promise<void> {
  await store.setChannelStatus(name, enabled ? 'enabled' : 'disabled', auditEntry(acting, enabled ? 'channel.enable' : 'channel.disable', name));
}

/** Removes a channel (its request logs keep its name). */
export async function removeChannel(store: Store, name: string, acting: Acting): Promise<void> {
  await store.removeChannel(name, auditEntry(acting, 'channel.remove', name));
}

/** The model a channel test asks for: the one given, else the channel's first; InvalidSetting when it serves none. */
export function testModelOf(channel: ChannelRecord, model: string | undefined, field: FieldName<ChannelField> = asIs): string {
  const chosen = model ?? Object.keys(channel.models)[0];
  if (!chosen) throw new InvalidSetting(`channel "${channel.name}" serves no model: give ${field('model')}`);
  return chosen;
}
