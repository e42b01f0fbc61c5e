/**
 * `model-gateway key ...`: create, list, show, change the limits of, disable, enable and delete API keys.
 * A key's secret is printed once, at creation; limits are changed by name (with --account when the name is
 * on several accounts), every limit not given kept.
 */
import { CLI_ACTOR, formatMicroUsd, isSpendPeriod, SPEND_PERIODS } from '../contract/index.ts';
import { changeKeyLimits, createKey, keyNamed } from './admin.ts';
import { futureDate, identifier, int, list, modelName, need, UsageError } from './cliArgs.ts';
import { describeLimits, resetsAt, type LimitChanges } from './keyLimitChanges.ts';
import { dayOf, periodStartDay } from './store/keySettings.ts';
import { userStop } from './auth.ts';
import { StoreError, type KeyRecord, type Store } from './store/types.ts';

export interface KeyFlags {
  readonly account?: string | undefined;
  readonly name?: string | undefined;
  readonly models?: string | undefined;
  readonly expires?: string | undefined;
  readonly rpm?: string | undefined;
  readonly concurrency?: string | undefined;
  readonly tpm?: string | undefined;
  readonly rpd?: string | undefined;
  readonly 'spend-limit'?: string | undefined;
  readonly 'spend-period'?: string | undefined;
  readonly 'allow-ip'?: readonly string[] | undefined;
}

/** The flags each key command takes (beyond --data and --database). */
export const KEY_COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  'key create': ['account', 'name', 'models', 'expires', 'rpm', 'concurrency', 'tpm', 'rpd', 'spend-limit', 'spend-period', 'allow-ip'],
  'key limits': ['account', 'rpm', 'concurrency', 'tpm', 'rpd', 'spend-limit', 'spend-period', 'allow-ip'],
  'key show': ['account'], 'key disable': ['account'], 'key enable': ['account'], 'key delete': ['account'],
};

export const KEY_USAGE = `  key create --account NAME --name KEYNAME [--models M1,M2] [--expires ISO-8601] [--rpm N] [--concurrency N]
              [--tpm N] [--rpd N] [--spend-limit USD [--spend-period total|day|month]] [--allow-ip IP|CIDR[,IP|CIDR...]]
              (--expires in the future; --rpm and --concurrency default 1200 and 64, 0 = unlimited; --tpm (tokens per
              minute) and --rpd (requests per UTC day) default 0 = none; --spend-limit: the key stops (403) once it has
              spent that much in the period (UTC day or month, or in total: the default); --allow-ip: only from these)
  key limits KEYNAME [--account NAME] [--rpm N] [--concurrency N] [--tpm N] [--rpd N] [--spend-limit USD|none]
              [--spend-period total|day|month] [--allow-ip IP|CIDR[,...]|none]   change the limits given, keep the others
  key list | show KEYNAME | disable KEYNAME | enable KEYNAME | delete KEYNAME [--account NAME]
              (key names are unique per account: --account says which when several accounts use the name)
`;

/** The limit flags as changes: absent flags change nothing; "none" removes a spending limit or an IP list. */
function limitChanges(flags: KeyFlags): LimitChanges {
  const period = flags['spend-period'];
  if (period !== undefined && !isSpendPeriod(period)) throw new UsageError(`--spend-period must be one of ${SPEND_PERIODS.join(', ')}, got "${period}"`);
  const spend = flags['spend-limit'];
  const ips = flags['allow-ip'];
  return {
    ...(flags.rpm !== undefined ? { rpm: int(flags.rpm, 'rpm', 0) } : {}),
    ...(flags.concurrency !== undefined ? { concurrency: int(flags.concurrency, 'concurrency', 0) } : {}),
    ...(flags.tpm !== undefined ? { tpm: int(flags.tpm, 'tpm', 0) } : {}),
    ...(flags.rpd !== undefined ? { rpd: int(flags.rpd, 'rpd', 0) } : {}),
    ...(spend !== undefined ? { spendLimitUsd: spend.trim() === 'none' ? null : spend } : {}),
    ...(period !== undefined ? { spendPeriod: period } : {}),
    ...(ips !== undefined ? { allowIps: ips.length === 1 && ips[0]!.trim() === 'none' ? null : ips.flatMap(list) } : {}),
  };
}

/** A limit the store refused (an amount, an IP entry): a usage error naming the flag. */
function asUsage(error: unknown): never {
  if (error instanceof StoreError && error.code === 'invalid') throw new UsageError(error.message);
  throw error;
}

export async function key(store: Store, sub: string | undefined, args: string[], flags: KeyFlags, io: { out: (line: string) => void }): Promise<number> {
  if (sub === 'create') {
    const expiresAt = flags.expires === undefined ? null : futureDate(flags.expires, 'expires', 'the key');
    const { secret } = await createKey(store, {
      account: identifier(flags.account, '--account'), name: identifier(flags.name, '--name'), models: modelsFlag(flags.models),
      expiresAt, ...limitChanges(flags),
    }).catch(asUsage);
    io.out(secret);
    return 0;
  }
  if (sub === 'list') {
    const accounts = new Map((await store.snapshot()).accounts.map((a) => [a.id, a]));
    for (const k of await store.listKeys()) {
      const expires = k.expiresAt === null ? 'never' : new Date(k.expiresAt).toISOString();
      const used = k.lastUsedAt === null ? 'never' : new Date(k.lastUsedAt).toISOString();
      const stop = k.status === 'enabled' ? userStop(k, accounts.get(k.accountId)) : null;
      io.out(`${k.name}\t${k.prefix}\t${k.status}\taccount=${accounts.get(k.accountId)?.name ?? '?'}\tmodels=${k.models?.join(',') ?? 'all'}\texpires=${expires}\tlast_used=${used}\t${describeLimits(k)}${stop ? `\tuser_disabled=${stop.user}` : ''}`);
    }
    return 0;
  }
  const name = need(args[0], 'KEYNAME');
  const found = await keyNamed(store, name, flags.account === undefined ? undefined : identifier(flags.account, '--account'));
  if (sub === 'show') return show(store, found, io);
  if (sub === 'limits') {
    const changes = limitChanges(flags);
    if (Object.keys(changes).length === 0) throw new UsageError('key limits: give at least one of --rpm, --concurrency, --tpm, --rpd, --spend-limit, --spend-period, --allow-ip');
    const limits = await changeKeyLimits(store, found, changes, CLI_ACTOR).catch(asUsage);
    io.out(`key "${name}" limits: ${describeLimits(limits).replaceAll('\t', ' ')}`);
    return 0;
  }
  if (sub !== 'disable' && sub !== 'enable' && sub !== 'delete') throw new UsageError(`unknown command: key ${sub ?? ''}`);
  if (sub === 'delete') {
    if (!(await store.deleteKey(found.id))) throw new StoreError('not_found', `no key named "${name}"`);
  } else await store.setKeyStatus(found.id, sub === 'disable' ? 'disabled' : 'enabled');
  io.out(`key "${name}" ${sub === 'delete' ? 'deleted' : `${sub}d`}`);
  return 0;
}

/** One key, a line per fact, with what it spent in its current period and how many requests it made today (UTC). */
async function show(store: Store, k: KeyRecord, io: { out: (line: string) => void }): Promise<number> {
  const now = Date.now();
  const usage = (await store.keyUsage([{ keyId: k.id, since: periodStartDay(k.spendPeriod, now), day: dayOf(now) }])).get(k.id) ?? { spent: 0, requests: 0 };
  const found = (await store.snapshot()).accounts.find((a) => a.id === k.accountId);
  const account = found?.name ?? '?';
  const resets = resetsAt(k, now);
  const stop = k.status === 'enabled' ? userStop(k, found) : null;
  for (const [what, value] of [
    ['name', k.name], ['account', account], ['prefix', k.prefix], ['status', k.status], ['models', k.models?.join(',') ?? 'all'],
    ['expires', k.expiresAt === null ? 'never' : new Date(k.expiresAt).toISOString()], ['created', new Date(k.createdAt).toISOString()],
    ['last_used', k.lastUsedAt === null ? 'never' : new Date(k.lastUsedAt).toISOString()],
    ['rpm', k.rpm || 'none'], ['concurrency', k.concurrency || 'none'], ['tpm', k.tpm || 'none'], ['rpd', k.rpd || 'none'],
    ['requests_today', usage.requests],
    ['spend_limit', k.spendLimit === null ? 'none' : `${formatMicroUsd(k.spendLimit)} (${k.spendPeriod})`],
    [k.spendPeriod === 'total' ? 'spent' : `spent_this_${k.spendPeriod}`, formatMicroUsd(usage.spent)],
    ['resets', resets ?? 'never'],
    ['allow_ips', k.allowIps?.join(',') ?? 'any'],
    ...(stop ? [['user_disabled', `${stop.user}: refused (403 key_disabled) until enabled (model-gateway user enable ${stop.user})`] as const] : []),
  ] as const) io.out(`${what}\t${value}`);
  return 0;
}

/**
 * --models: the models a key may use; absent, every model. Given but empty ("$MODELS" unset) it is refused, never
 * read as every model.
 */
function modelsFlag(given: string | undefined): string[] {
  const models = [...new Set(list(given).map((m) => modelName(m, '--models')))];
  if (given !== undefined && models.length === 0) throw new UsageError('--models is empty: name the models the key may use (M1,M2), or leave --models out for every model');
  return models;
}
