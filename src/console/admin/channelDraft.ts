/**
 * A channel's settings as its form holds them (text as typed), from a channel the gateway answered,
 * checked as the gateway will check them (contract api/channels.ts: bounds, URLs, model names), and
 * turned into the body of an add or of an update that names only what changed (a key only when one
 * was typed). Plain functions, no DOM.
 */
import type { BodyOf } from '../api.ts';
import { CHANNEL_TYPES, type ChannelType } from '../../contract/channels.ts';
import type { Pair } from './PairsEditor.tsx';
import { CHANNEL_LIMITS, DEFAULT_CHANNEL_TIMEOUT_MS, isConfigurableModelName, isHttpUrl } from '../../contract/values.ts';

export type { ChannelView } from '../../contract/api/channels.ts';
import type { ChannelView } from '../../contract/api/channels.ts';
export { CHANNEL_TYPES };

export interface ChannelDraft {
  readonly name: string;
  readonly type: ChannelType;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly removeKey: boolean;
  readonly models: readonly Pair[];
  readonly priority: string;
  readonly weight: string;
  readonly timeout: string;
  readonly proxy: string;
  readonly responses: '' | 'yes' | 'no';
}


export const EMPTY_DRAFT: ChannelDraft = {
  name: '', type: 'openai', baseUrl: '', apiKey: '', removeKey: false, models: [['', '']], priority: '0', weight: '1', timeout: '', proxy: '', responses: '',
};

export function draftOf(channel: ChannelView): ChannelDraft {
  return {
    name: channel.name, type: channel.type, baseUrl: channel.base_url ?? '', apiKey: '', removeKey: false,
    models: Object.entries(channel.models).map(([name, upstream]) => [name, upstream === name ? '' : upstream] as const),
    priority: String(channel.priority), weight: String(channel.weight), timeout: String(channel.timeout_ms), proxy: channel.proxy ?? '',
    responses: channel.responses_api === null ? '' : channel.responses_api ? 'yes' : 'no',
  };
}


/** What is wrong with a field, as the words' key and its values. */
export type Problem = readonly [key: 'baseUrlNeeded' | 'urlBad' | 'numberBad' | 'modelsNeeded' | 'modelBad' | 'modelTwice', vars?: Readonly<Record<string, string | number>>];
export type Problems = Partial<Record<'baseUrl' | 'proxy' | 'priority' | 'weight' | 'timeout' | 'models', Problem>>;

function wholeNumber(text: string, bounds: { min: number; max: number }): Problem | undefined {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= bounds.min && n <= bounds.max ? undefined : ['numberBad', { min: bounds.min, max: bounds.max }];
}

/** The problems of the draft, field by field; none: it can be sent. */
export function problemsOf(draft: ChannelDraft): Problems {
  const problems: { -readonly [K in keyof Problems]: Problem } = {};
  const baseUrl = draft.baseUrl.trim();
  if (draft.type !== 'echo' && !baseUrl) problems.baseUrl = ['baseUrlNeeded'];
  else if (baseUrl && !isHttpUrl(baseUrl)) problems.baseUrl = ['urlBad'];
  if (draft.proxy.trim() && !isHttpUrl(draft.proxy.trim())) problems.proxy = ['urlBad'];
  const priority = wholeNumber(draft.priority, CHANNEL_LIMITS.priority);
  if (priority) problems.priority = priority;
  const weight = wholeNumber(draft.weight, CHANNEL_LIMITS.weight);
  if (weight) problems.weight = weight;
  const timeout = draft.timeout.trim() ? wholeNumber(draft.timeout, CHANNEL_LIMITS.timeoutMs) : undefined;
  if (timeout) problems.timeout = timeout;
  const filled = draft.models.filter(([name, upstream]) => name.trim() || upstream.trim());
  const seen = new Set<string>();
  if (filled.length === 0) problems.models = ['modelsNeeded'];
  for (const [name, upstream] of filled) {
    if (!isConfigurableModelName(name.trim()) || (upstream.trim() !== '' && !isConfigurableModelName(upstream.trim()))) problems.models ??= ['modelBad'];
    else if (seen.has(name.trim())) problems.models ??= ['modelTwice', { name: name.trim() }];
    seen.add(name.trim());
  }
  return problems;
}

/** The models of the draft as the API takes them: platform name -> upstream name. */
export function modelsOf(draft: ChannelDraft): Record<string, string> {
  const models: Record<string, string> = {};
  for (const [name, upstream] of draft.models) if (name.trim()) models[name.trim()] = upstream.trim() || name.trim();
  return models;
}

type Settings = Omit<BodyOf<'addChannel'>, 'name' | 'api_key'>;

function settingsOf(draft: ChannelDraft): Required<Settings> {
  return {
    type: draft.type,
    base_url: draft.type === 'echo' ? null : draft.baseUrl.trim() || null,
    models: modelsOf(draft),
    priority: Number(draft.priority.trim()),
    weight: Number(draft.weight.trim()),
    timeout_ms: draft.timeout.trim() ? Number(draft.timeout.trim()) : DEFAULT_CHANNEL_TIMEOUT_MS,
    proxy: draft.proxy.trim() || null,
    responses_api: draft.type !== 'openai' || draft.responses === '' ? null : draft.responses === 'yes',
  };
}

export function addBody(draft: ChannelDraft): BodyOf<'addChannel'> {
  const key = draft.apiKey.trim();
  return { name: draft.name.trim(), ...settingsOf(draft), ...(key ? { api_key: key } : {}) };
}

/** Only what differs from `channel` (the key: a new one typed, or removed); null when nothing does. */
export function updateBody(channel: ChannelView, draft: ChannelDraft): BodyOf<'updateChannel'> | null {
  const now = settingsOf(draftOf(channel));
  const next = settingsOf(draft);
  const changed: Record<string, unknown> = {};
  for (const field of Object.keys(next) as (keyof Settings)[]) {
    if (JSON.stringify(next[field]) !== JSON.stringify(now[field])) changed[field] = next[field];
  }
  const key = draft.apiKey.trim();
  if (key) changed['api_key'] = key;
  else if (draft.removeKey && channel.api_key.set) changed['api_key'] = null;
  return Object.keys(changed).length === 0 ? null : { name: channel.name, ...(changed as Settings & { api_key?: string | null }) };
}
