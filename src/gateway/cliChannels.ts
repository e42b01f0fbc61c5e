/**
 * `model-gateway channel ...`: upstream channels. `add` reads its flags (each checked where it is read,
 * cliArgs.ts) into the settings the rules shared with the admins' console check (channelAdmin.ts);
 * `update` changes the settings given; `list` shows each with its recent answers served and failed; `test`
 * sends one minimal request to the upstream (channelTest.ts); `disable`, `enable`, `remove`. Every change is recorded in the audit log
 * under CLI_ACTOR, as the console records it under the admin. The upstream key is read from standard
 * input or the environment (never only from argv) and never printed.
 */
import { CHANNEL_LIMITS, CHANNEL_TYPES, CLI_ACTOR, isChannelKeyText, isChannelType, KINDS_OF_CHANNEL_TYPE, shownUrl, withArticle } from '../contract/index.ts';
import { DEFAULT_CHANNEL_TIMEOUT_MS } from './admin.ts';
import { addChannel, channelNamed, removeChannel, setChannelEnabled, testModelOf, unfitModels, unpricedModels, updateChannel, type ChannelField } from './channelAdmin.ts';
import { recentHealth } from './channelHealthReport.ts';
import { toRelayChannel } from './catalog.ts';
import { asUsage, httpUrl, identifier, int, list, modelName, need, UsageError, yesNo } from './cliArgs.ts';
import type { ChannelRecord, Store } from './store/types.ts';

/** The flags `channel` reads, as parseArgs gives them. */
export interface ChannelFlags {
  readonly name?: string | undefined;
  readonly type?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly 'api-key'?: string | undefined;
  readonly models?: string | undefined;
  readonly map?: string[] | undefined;
  readonly priority?: string | undefined;
  readonly weight?: string | undefined;
  readonly 'timeout-ms'?: string | undefined;
  readonly proxy?: string | undefined;
  readonly responses?: string | undefined;
  readonly model?: string | undefined;
  readonly 'remove-api-key'?: boolean | undefined;
}

export interface ChannelIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** All of standard input (for `--api-key -`: a secret on the command line is visible to every user in ps). */
  readStdin?: () => Promise<string>;
}

/** Where `channel add` finds the upstream key when --api-key is not given. */
const CHANNEL_KEY_ENV = 'MODEL_GATEWAY_CHANNEL_API_KEY';

/** The flag each setting of the shared rules is read from. */
const FLAG_OF: Readonly<Record<ChannelField, string>> = { base_url: '--base-url', models: '--models', responses_api: '--responses', model: '--model' };
const flagOf = (field: ChannelField): string => FLAG_OF[field];

/** The upstream key: --api-key KEY, --api-key - (from standard input), else $MODEL_GATEWAY_CHANNEL_API_KEY; null for none. */
async function channelKey(flag: string | undefined, io: ChannelIo, env: NodeJS.ProcessEnv): Promise<string | null> {
  let key: string | null;
  if (flag === '-') {
    if (!io.readStdin) throw new UsageError('--api-key - reads the key from standard input, which is not available here');
    key = (await io.readStdin()).trim();
    if (!key) throw new UsageError('--api-key -: standard input held no key');
  } else {
    key = flag ?? (env[CHANNEL_KEY_ENV]?.trim() || null);
  }
  // Never echoed: the refusal says what is wrong, not the key.
  if (key !== null && !isChannelKeyText(key)) throw new UsageError('--api-key must be printable ASCII, as an HTTP header carries it (no line break, no character past ASCII)');
  return key;
}

/** --models M1,M2 (served under their own names) and --map PLATFORM=UPSTREAM. */
function modelsOf(values: ChannelFlags): Record<string, string> {
  const models: Record<string, string> = {};
  for (const m of list(values.models)) models[modelName(m, '--models')] = m;
  for (const pair of values.map ?? []) {
    const at = pair.indexOf('=');
    const platform = pair.slice(0, at).trim();
    const upstream = pair.slice(at + 1).trim();
    if (at < 0 || !platform || !upstream || upstream.includes('=')) throw new UsageError(`--map takes PLATFORM=UPSTREAM (one "="), got "${pair}"`);
    models[modelName(platform, '--map')] = modelName(upstream, '--map');
  }
  return models;
}

async function add(store: Store, values: ChannelFlags, io: ChannelIo, env: NodeJS.ProcessEnv): Promise<number> {
  const type = values.type ?? 'openai';
  if (!isChannelType(type)) throw new UsageError(`--type must be one of ${CHANNEL_TYPES.join(', ')}, got "${type}"`);
  // The echo channel answers offline: an address or key given to it would be kept for nothing, silently.
  if (type === 'echo' && (values['base-url'] !== undefined || values.proxy !== undefined || values['api-key'] !== undefined)) {
    throw new UsageError('an echo channel answers offline: it takes no --base-url, --proxy or --api-key');
  }
  const baseUrl = type === 'echo' || values['base-url'] === undefined ? null : httpUrl(need(values['base-url'], '--base-url'), 'base-url');
  const { priority, weight, timeoutMs } = CHANNEL_LIMITS;
  const settings = {
    type, baseUrl, models: modelsOf(values),
    priority: int(values.priority, 'priority', 0, priority.min, priority.max), weight: int(values.weight, 'weight', 1, weight.min, weight.max),
    timeoutMs: int(values['timeout-ms'], 'timeout-ms', DEFAULT_CHANNEL_TIMEOUT_MS, timeoutMs.min, timeoutMs.max),
    proxy: values.proxy === undefined ? null : httpUrl(values.proxy, 'proxy'), responsesApi: yesNo(values.responses, 'responses'),
  };
  const name = identifier(values.name, '--name');
  const c = await asUsage(async () => addChannel(store, name, await channelKey(values['api-key'], io, env), settings, { actor: CLI_ACTOR }, flagOf));
  io.out(`channel "${c.name}" (${c.type}) added, serving ${Object.keys(c.models).join(', ')}`);
  const unpriced = await unpricedModels(store, c);
  if (unpriced.length > 0) {
    io.err(`warning: no price yet for ${unpriced.join(', ')}: not served until priced, with "model-gateway model price MODEL --input USD --output USD" (or --free)`);
  }
  await warnUnfit(store, c, io);
  return 0;
}

/**
 * `channel update NAME`: the settings given change, the others stay. --models (with --map) replaces the
 * models served; --proxy none and --remove-api-key take a proxy or key away; the key is replaced only when
 * --api-key is given (as for add: KEY, or - for standard input). Checked by add's rules as a whole.
 */
async function update(store: Store, name: string, values: ChannelFlags, io: ChannelIo): Promise<number> {
  if (values['api-key'] !== undefined && values['remove-api-key']) throw new UsageError('give --api-key or --remove-api-key, not both');
  const { priority, weight, timeoutMs } = CHANNEL_LIMITS;
  const optionalInt = (value: string | undefined, flag: string, min: number, max: number) => (value === undefined ? undefined : int(value, flag, 0, min, max));
  const changes = {
    baseUrl: values['base-url'] === undefined ? undefined : httpUrl(values['base-url'], 'base-url'),
    models: values.models === undefined && values.map === undefined ? undefined : modelsOf(values),
    priority: optionalInt(values.priority, 'priority', priority.min, priority.max),
    weight: optionalInt(values.weight, 'weight', weight.min, weight.max),
    timeoutMs: optionalInt(values['timeout-ms'], 'timeout-ms', timeoutMs.min, timeoutMs.max),
    proxy: values.proxy === undefined ? undefined : values.proxy === 'none' ? null : httpUrl(values.proxy, 'proxy'),
    responsesApi: yesNo(values.responses, 'responses') ?? undefined,
    apiKey: values['remove-api-key'] ? null : values['api-key'] === undefined ? undefined : await channelKey(values['api-key'], io, {}),
  };
  const c = await asUsage(async () => updateChannel(store, name, changes, { actor: CLI_ACTOR }, flagOf));
  io.out(`channel "${c.name}" updated${changes.apiKey === undefined ? '' : changes.apiKey === null ? ' (its key removed)' : ' (its key replaced)'}, serving ${Object.keys(c.models).join(', ')}`);
  const unpriced = await unpricedModels(store, c);
  if (unpriced.length > 0) io.err(`warning: no price yet for ${unpriced.join(', ')}: not served until priced (model-gateway model price MODEL ...)`);
  await warnUnfit(store, c, io);
  return 0;
}

/** Models priced as a kind this channel's type cannot serve: it will not serve them. */
async function warnUnfit(store: Store, c: ChannelRecord, io: ChannelIo): Promise<void> {
  const unfit = await unfitModels(store, c);
  if (unfit.length > 0) io.err(`warning: ${withArticle(c.type)} channel serves ${KINDS_OF_CHANNEL_TYPE[c.type].join(', ')} models only; "${c.name}" will not serve ${unfit.join(', ')}`);
}

async function listChannels(store: Store, io: ChannelIo): Promise<number> {
  const health = recentHealth(await store.listLogs(1000));
  for (const c of await store.listChannels()) {
    const models = Object.entries(c.models).map(([p, u]) => (p === u ? p : `${p}=${u}`)).join(',');
    const h = health.get(c.name);
    const recent = h ? `\trecent=${h.served} served/${h.failed} failed${h.lastFailure ? `\tlast-failure=${h.lastFailure}` : ''}` : '';
    io.out(`${c.name}\t${c.type}\t${c.status}\t${c.baseUrl ? shownUrl(c.baseUrl) : '-'}\tmodels=${models}\tpriority=${c.priority}\tweight=${c.weight}\ttimeout=${c.timeoutMs}ms${c.proxy ? `\tproxy=${shownUrl(c.proxy)}` : ''}${c.type === 'openai' ? `\tresponses=${toRelayChannel(c).responsesApi ? 'yes' : 'no'}` : ''}${recent}${c.unreadable ? `\tunreadable=${c.unreadable.join('+').replaceAll(' ', '-')} (sealed with another secret key: give it again with channel update)` : ''}`);
  }
  return 0;
}

export async function channel(store: Store, sub: string | undefined, args: string[], values: ChannelFlags, io: ChannelIo, env: NodeJS.ProcessEnv): Promise<number> {
  if (sub === 'add') return add(store, values, io, env);
  if (sub === 'list') return listChannels(store, io);
  const name = need(args[0], 'channel NAME');
  if (sub === 'update') return update(store, name, values, io);
  if (sub === 'test') {
    const found = await channelNamed(store, name);
    const model = await asUsage(async () => testModelOf(found, values.model, flagOf));
    // Loaded only here: serve does not need it in memory.
    const { testChannel } = await import('./channelTest.ts');
    const result = await testChannel(found, model);
    (result.ok ? io.out : io.err)(result.line);
    return result.ok ? 0 : 1;
  }
  if (sub === 'disable' || sub === 'enable') await setChannelEnabled(store, name, sub === 'enable', { actor: CLI_ACTOR });
  else if (sub === 'remove') await removeChannel(store, name, { actor: CLI_ACTOR });
  else throw new UsageError(`unknown command: channel ${sub ?? ''}`);
  io.out(`channel "${name}" ${sub === 'remove' ? 'removed' : `${sub}d`}`);
  return 0;
}
