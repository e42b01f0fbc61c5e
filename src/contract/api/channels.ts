/**
 * The management API of channels (issue 10; contract 4.10 "Admins"): the bodies the gateway accepts
 * and the shapes it answers, and the rules a channel's settings follow wherever they are set (the CLI's
 * `channel add` reads its flags with the same predicates and bounds). A channel's upstream key goes in
 * (add, update) and never comes out: answers say only whether one is set, and its last 4 characters.
 */
import { z } from 'zod';
import { ConsoleName } from '../admin.ts';
import { CHANNEL_TYPES } from '../channels.ts';
import { MAX_MODEL_NAME_LENGTH } from '../kinds.ts';
import { IsoTime, IsoTimeOrNull, named } from './schema.ts';
import { CHANNEL_LIMITS, isChannelKeyText, isConfigurableModelName, isHttpUrl } from '../values.ts';

export const ADMIN_CHANNELS_PATH = '/api/console/admin/channels';

export { CHANNEL_LIMITS };

/** The longest upstream key taken (real ones are a few hundred characters at most). */
export const MAX_CHANNEL_KEY_LENGTH = 4096;

export { isChannelKeyText, isConfigurableModelName, isHttpUrl };

export const ConfigurableModelName = z.string().refine(isConfigurableModelName, `must be printable text of at most ${MAX_MODEL_NAME_LENGTH} characters, with no spaces around it`);
const HttpUrl = z.string().max(2048).refine(isHttpUrl, 'must be an http:// or https:// URL');
const bounded = (limits: { min: number; max: number }) => z.int().min(limits.min).max(limits.max);
/** Platform model name -> the upstream's name for it (the same name when the upstream uses it). */
const ModelMap = z.record(ConfigurableModelName, ConfigurableModelName);
const ChannelKey = z.string().trim().min(1).max(MAX_CHANNEL_KEY_LENGTH).refine(isChannelKeyText, 'must be printable ASCII, as an HTTP header carries it (no line break, no character past ASCII)');

/** What can be set on a channel, apart from its name and key. */
const settings = {
  type: z.enum(CHANNEL_TYPES).optional(),
  /** Required for openai and anthropic channels; an echo channel has none. */
  base_url: HttpUrl.nullable().optional(),
  models: ModelMap.optional(),
  priority: bounded(CHANNEL_LIMITS.priority).optional(),
  weight: bounded(CHANNEL_LIMITS.weight).optional(),
  timeout_ms: bounded(CHANNEL_LIMITS.timeoutMs).optional(),
  proxy: HttpUrl.nullable().optional(),
  /** openai channels: the upstream has the Responses API (null: decided by the base URL, yes for api.openai.com). */
  responses_api: z.boolean().nullable().optional(),
};

/** POST /api/console/admin/channels: a new channel, as `channel add` makes one (type openai by default). */
export const NewChannelBody = named('NewChannelBody', z.strictObject({ name: ConsoleName, ...settings, models: ModelMap, api_key: ChannelKey.nullable().optional() }));
export type NewChannelBody = z.infer<typeof NewChannelBody>;

/**
 * POST /api/console/admin/channels/update: the fields given change, the others stay. `api_key`: a new key
 * replaces the old one, null removes it, absent keeps it. The name is the channel's identity (request
 * logs, health and the audit log name it): it is not changed here.
 */
export const UpdateChannelBody = named('UpdateChannelBody', z.strictObject({ name: ConsoleName, ...settings, api_key: ChannelKey.nullable().optional() }));
export type UpdateChannelBody = z.infer<typeof UpdateChannelBody>;

/** POST /api/console/admin/channels/disable, /enable, /delete. */
export const ChannelNameBody = named('ChannelNameBody', z.strictObject({ name: ConsoleName }));

/** POST /api/console/admin/channels/test: `model` defaults to the channel's first. */
export const ChannelTestBody = named('ChannelTestBody', z.strictObject({ name: ConsoleName, model: ConfigurableModelName.optional() }));

/** A channel as the admins' list shows it: never its key. */
export const ChannelView = named('Channel', z.strictObject({
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  base_url: z.string().nullable(),
  models: z.record(z.string(), z.string()),
  priority: z.int(),
  weight: z.int(),
  timeout_ms: z.int(),
  proxy: z.string().nullable(),
  responses_api: z.boolean().nullable(),
  status: z.enum(['enabled', 'disabled']),
  created_at: IsoTime,
  /** Whether an upstream key is set, and its last 4 characters when it is long enough for that to give nothing away. */
  api_key: z.strictObject({ set: z.boolean(), last4: z.string().nullable() }),
  health: z.strictObject({
    /** From the latest request logs (what every instance can read): answers served, attempts failed, the last failure. */
    served: z.int(),
    failed: z.int(),
    last_failure: z.string().nullable(),
    /** This instance's failover memory: failures in a row, and until when the channel is skipped (null: in use). */
    failures_in_a_row: z.int(),
    cooling_down_until: IsoTimeOrNull,
  }),
}));
export type ChannelView = z.infer<typeof ChannelView>;

export const ChannelList = named('ChannelList', z.strictObject({ object: z.literal('list'), data: z.array(ChannelView) }));

/** A channel added (with the models it serves that have no price yet: not served until priced), changed, enabled or disabled. */
export const ChannelAnswer = named('ChannelAnswer', z.strictObject({ object: z.literal('console.channel'), channel: ChannelView, unpriced: z.array(z.string()).optional() }));
/** 200 to POST /api/console/admin/channels/delete. */
export const ChannelDeleted = named('ChannelDeleted', z.strictObject({ object: z.literal('console.channel_deleted'), name: z.string() }));

/** 200 to POST /api/console/admin/channels/test: what the upstream did with one minimal request. */
export const ChannelTestResult = named('ChannelTestResult', z.strictObject({
  object: z.literal('console.channel_test'),
  channel: z.string(),
  model: z.string(),
  upstream_model: z.string(),
  ok: z.boolean(),
  /** The upstream's HTTP status; null when none came (no connection, no answer in time, an echo channel). */
  status: z.int().nullable(),
  latency_ms: z.int(),
  /** The contract's code for the failure (upstream_error, upstream_rate_limited, upstream_timeout, upstream_unavailable); null when it worked. */
  error_code: z.string().nullable(),
  /** What happened, in words (the upstream's own, any key in them redacted). */
  message: z.string(),
}));
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;
