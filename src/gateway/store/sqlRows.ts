/**
 * Rows of the SQL stores (SQLite and PostgreSQL, same column names) as records. A row that cannot be
 * read (a JSON column that is not what it must be, hand-edited or damaged; a number past 2^53) is
 * named, with how to repair it, instead of stopping startup with a bare parse error or a rounded number.
 */
import { isModelKind, isSpendPeriod, type ChannelType, type ModelKind } from '../../contract/index.ts';
import { StoreError } from './types.ts';
import { maxOutputUpdate } from './modelMaxOutput.ts';
import { imageInputUpdate } from './modelImageInput.ts';
import { storedUrl, type SealSecret } from './channelSecretsAtRest.ts';
import type {
  AccountRecord, AdminTokenRecord, ChannelChanges, ChannelRecord, InvitationRecord, KeyRecord, ModelRecord, RedemptionCodeRecord, SessionRecord, SingleUseCode, StoredLog, UserRecord,
} from './types.ts';

/** A row as the driver gives it: node:sqlite gives numbers, pg gives BIGINT columns as decimal strings. */
export type Row = Record<string, unknown>;

/**
 * A whole number as a JS number, only when exact: PostgreSQL's BIGINT (money, times) arrives as text, and
 * Number() of a value past 2^53 would silently round it (a balance off by a few micro-USD).
 */
export function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' || typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw new StoreError('invalid', `the database holds ${String(v).slice(0, 40)} where a whole number below 2^53 must be: repair that row`);
  return n;
}
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
/** A measured time (milliseconds, first byte to a tenth): a plain number, not money, so no exactness check. */
const msOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toUser(r: Row): UserRecord {
  return {
    id: num(r.id), name: String(r.name), accountId: num(r.account_id), admin: Boolean(r.admin),
    status: r.status === 'disabled' ? 'disabled' : 'enabled', passwordHash: String(r.password_hash), createdAt: num(r.created_at),
    lastSignInAt: numOrNull(r.last_sign_in_at),
  };
}

/** A console session row (sessions table, both SQL stores). */
export function toSession(r: Row): SessionRecord {
  return {
    idHash: String(r.id_hash), userId: num(r.user_id), createdAt: num(r.created_at), lastSeenAt: num(r.last_seen_at),
    expiresAt: num(r.expires_at), revokedAt: numOrNull(r.revoked_at),
  };
}

/** An admin access token row (admin_tokens, both SQL stores). */
export function toAdminToken(r: Row): AdminTokenRecord {
  return {
    id: num(r.id), name: String(r.name), hash: String(r.token_hash), prefix: String(r.token_prefix), createdBy: num(r.created_by), createdAt: num(r.created_at),
    expiresAt: numOrNull(r.expires_at), revokedAt: numOrNull(r.revoked_at), lastUsedAt: numOrNull(r.last_used_at),
  };
}

/** An account row; read with its users (keyUsers.ts accountUsersColumns), it says whether they are all disabled. */
export function toAccount(r: Row): AccountRecord {
  const account = { id: num(r.id), name: String(r.name), balance: num(r.balance), totalSpent: num(r.total_spent), createdAt: num(r.created_at) };
  if (r.users_disabled === undefined) return account;
  const users = num(r.users_disabled);
  return { ...account, usersDisabled: users > 0 ? { users, first: String(r.first_disabled_user) } : null };
}

/** What every code row has (redemption_codes, both SQL stores; `disabled` is 0/1 on SQLite, a boolean on PostgreSQL). */
function toSingleUse(r: Row): SingleUseCode {
  return {
    id: num(r.id), hash: String(r.code_hash), batch: strOrNull(r.batch), createdAt: num(r.created_at),
    createdBy: numOrNull(r.created_by), expiresAt: numOrNull(r.expires_at), disabled: Boolean(r.disabled),
    redeemedAt: numOrNull(r.redeemed_at), redeemedAccountId: numOrNull(r.redeemed_account_id), redeemedUserId: numOrNull(r.redeemed_user_id),
  };
}

/** A redemption code row. */
export function toCode(r: Row): RedemptionCodeRecord {
  return { ...toSingleUse(r), value: num(r.value) };
}

/** An invitation code row (no value). */
export function toInvitation(r: Row): InvitationRecord {
  return toSingleUse(r);
}

/** A code row of either kind, checked as its kind says (`migrate` reads the whole table). */
export function toAnyCode(r: Row): SingleUseCode {
  if (r.kind === 'invitation') return toInvitation(r);
  if (r.kind === 'redemption' || r.kind === undefined) return toCode(r);
  throw new StoreError('invalid', `the redemption_codes row where id = ${String(r.id)} has the unknown kind ${JSON.stringify(r.kind)}: set it to redemption or invitation`);
}

export function toKey(r: Row): KeyRecord {
  return {
    id: num(r.id), accountId: num(r.account_id), userId: numOrNull(r.user_id), disabledCreator: strOrNull(r.disabled_creator),
    name: String(r.name), hash: String(r.key_hash), prefix: String(r.key_prefix),
    status: r.status === 'disabled' ? 'disabled' : 'enabled',
    models: r.models === null ? null : jsonColumn(r, 'api_keys', 'models', isStringList),
    expiresAt: numOrNull(r.expires_at), createdAt: num(r.created_at), lastUsedAt: numOrNull(r.last_used_at),
    rpm: num(r.rpm), concurrency: num(r.concurrency), tpm: num(r.tpm), rpd: num(r.rpd), spendLimit: numOrNull(r.spend_limit),
    spendPeriod: isSpendPeriod(r.spend_period) ? r.spend_period : badPeriod(r), allowIps: r.allow_ips === null ? null : jsonColumn(r, 'api_keys', 'allow_ips', isStringList),
  };
}

/** A key_usage row (keySettings.ts), checked: whole numbers. */
export function toKeyUsage(r: Row): { keyId: number; day: number; requests: number; spent: number } {
  return { keyId: num(r.key_id), day: num(r.day), requests: num(r.requests), spent: num(r.spent) };
}

function badPeriod(r: Row): never {
  throw new StoreError('invalid', `the api_keys row where id = ${String(r.id)} has the unknown spend_period ${JSON.stringify(r.spend_period)}: set it to total, day or month`);
}

/** A channel row; its key opened with `openKey` (keys are sealed at rest, secretBox.ts). */
/** A channel row as a record; `open` gives back a sealed secret (its key, a URL holding one), and a plain one as it is. */
export function toChannel(r: Row, open: (stored: string, what: string) => string): ChannelRecord {
  const unreadable: string[] = [];
  // A secret sealed with another key is read as none (and said), never a gateway that cannot start or list its channels.
  const opened = (v: unknown, what: string): string | null => {
    if (v === null || v === undefined) return null;
    try {
      return open(String(v), `${what} of channel "${String(r.name)}"`);
    } catch (error) {
      if (!(error instanceof StoreError) || !UNOPENED.test(error.message)) throw error;
      unreadable.push(what);
      return null;
    }
  };
  const record: ChannelRecord = {
    id: num(r.id), name: String(r.name), type: String(r.type) as ChannelType, baseUrl: opened(r.base_url, 'the base URL'),
    apiKey: opened(r.api_key, 'the key'), models: jsonColumn(r, 'channels', 'models', isStringRecord),
    priority: num(r.priority), weight: num(r.weight), status: r.status === 'disabled' ? 'disabled' : 'enabled',
    timeoutMs: num(r.timeout_ms), proxy: opened(r.proxy, 'the proxy'), createdAt: num(r.created_at),
    responsesApi: r.responses_api === null || r.responses_api === undefined ? null : Boolean(r.responses_api),
  };
  return unreadable.length > 0 ? { ...record, unreadable } : record;
}

/** What SecretBox.open and openChannelKey say of a secret they cannot open. */
const UNOPENED = /^cannot open .*: it was sealed with another secret key/;

function modelKindOf(value: unknown): ModelKind {
  if (isModelKind(value)) return value;
  throw new StoreError('invalid', `a model row has the unknown kind ${JSON.stringify(value)}: set it to one of chat, completion, embedding, image`);
}

export function toModel(r: Row): ModelRecord {
  return {
    name: String(r.name), inputPrice: num(r.input_price), outputPrice: num(r.output_price),
    contextLength: numOrNull(r.context_length), toolCalling: r.tool_calling === null ? null : Boolean(r.tool_calling),
    imageInput: r.image_input === null || r.image_input === undefined ? null : Boolean(r.image_input),
    kind: modelKindOf(r.kind), imagePrice: numOrNull(r.image_price),
    cachedInputPrice: numOrNull(r.cached_input_price), cacheWritePrice: numOrNull(r.cache_write_price),
    defaultMaxTokens: numOrNull(r.default_max_tokens), maxOutputTokens: numOrNull(r.max_output_tokens),
    imagePrices: r.image_prices === null || r.image_prices === undefined ? null : jsonColumn(r, 'models', 'image_prices', isPriceRecord),
  };
}

/** The columns a request log is written with, in the order the SQL stores' batch writers pass them. */
export const LOG_COLUMNS = [
  'time', 'request_id', 'method', 'path', 'account_id', 'key_id', 'key_name', 'model', 'channel', 'status',
  'error_code', 'prompt_tokens', 'completion_tokens', 'usage_estimated', 'cost', 'latency_ms', 'first_byte_ms', 'stream', 'completion_cap', 'attempts',
  'upstream_model', 'user_agent', 'client_ip',
] as const;

export function toLog(r: Row): StoredLog {
  return {
    id: num(r.id), time: num(r.time), requestId: String(r.request_id), method: String(r.method), path: String(r.path),
    accountId: numOrNull(r.account_id), keyId: numOrNull(r.key_id), accountName: strOrNull(r.account_name), keyName: strOrNull(r.key_name),
    model: strOrNull(r.model), channel: strOrNull(r.channel), status: num(r.status), errorCode: strOrNull(r.error_code),
    promptTokens: num(r.prompt_tokens), completionTokens: num(r.completion_tokens), usageEstimated: Boolean(r.usage_estimated),
    cost: num(r.cost), latencyMs: Number(r.latency_ms), firstByteMs: msOrNull(r.first_byte_ms), stream: Boolean(r.stream),
    completionCap: numOrNull(r.completion_cap),
    attempts: strOrNull(r.attempts),
    upstreamModel: strOrNull(r.upstream_model), userAgent: strOrNull(r.user_agent), clientIp: strOrNull(r.client_ip),
  };
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string');
const isPriceRecord = (v: unknown): v is Record<string, number> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((n) => Number.isSafeInteger(n) && (n as number) >= 0);

/** A JSON column's value, or a StoreError naming the table, the row and the column, and the repair. */
function jsonColumn<T>(r: Row, table: string, column: string, valid: (v: unknown) => v is T): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(r[column]));
  } catch {
    parsed = undefined;
  }
  if (valid(parsed)) return parsed;
  const which = r['id'] !== undefined ? `id = ${String(r['id'])}` : `name = '${String(r['name'])}'`;
  throw new StoreError(
    'invalid',
    `the ${table} row where ${which}${r['id'] !== undefined && r['name'] !== undefined ? ` (${JSON.stringify(r['name'])})` : ''} has an unreadable ${column}: ` +
      `${JSON.stringify(String(r[column]).slice(0, 80))}. Repair it, for example with: UPDATE ${table} SET ${column} = '...' WHERE ${which} (sqlite3 gateway.db, or psql)` +
      // Channels and keys can be removed and made again with the CLI; a model's prices cannot be removed.
      (table === 'models' ? '.' : ', or remove it with the CLI and add it again.'),
  );
}

/** The channels columns an update may set, by the record's field. */
const CHANNEL_COLUMNS = {
  type: 'type', baseUrl: 'base_url', apiKey: 'api_key', models: 'models', priority: 'priority', weight: 'weight', timeoutMs: 'timeout_ms', proxy: 'proxy', responsesApi: 'responses_api',
} as const satisfies Record<keyof ChannelChanges, string>;

/**
 * The UPDATE ... RETURNING of a channel's changed fields (both SQL stores), its name the last parameter:
 * `seal` turns a new key, or a URL holding a secret, into what the column holds, `flag` a boolean into the database's.
 */
export function channelUpdate(name: string, changes: ChannelChanges, placeholder: (i: number) => string, seal: SealSecret, flag: (value: boolean) => unknown): { sql: string; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [field, column] of Object.entries(CHANNEL_COLUMNS) as [keyof ChannelChanges, string][]) {
    const value = changes[field];
    if (value === undefined) continue;
    values.push(value === null ? null
      : field === 'apiKey' ? seal(value as string, `the key of channel "${name}"`)
      : field === 'baseUrl' || field === 'proxy' ? storedUrl(value as string, seal, `the ${field === 'proxy' ? 'proxy' : 'base URL'} of channel "${name}"`)
      : field === 'models' ? JSON.stringify(value) : field === 'responsesApi' ? flag(value as boolean) : value);
    sets.push(`${column} = ${placeholder(values.length)}`);
  }
  if (sets.length === 0) throw new StoreError('invalid', 'a channel update must change something');
  return { sql: `UPDATE channels SET ${sets.join(', ')} WHERE name = ${placeholder(values.length + 1)} RETURNING *`, values };
}

/**
 * A model's price row written (insert, or update keeping the context length and default cap it had when the new
 * record leaves them unknown, and the image input and maximum output when it leaves them out; tool support as given), in either SQL dialect: `placeholder(i)` is `?`
 * or `$i`, and `flag` binds tool calling and image input as the engine stores booleans.
 */
export function modelUpsert(m: ModelRecord, placeholder: (i: number) => string, flag: (value: boolean) => unknown): { sql: string; values: unknown[] } {
  const flagOrNull = (value: boolean | null | undefined) => (value === null || value === undefined ? null : flag(value));
  const values = [
    m.name, m.inputPrice, m.outputPrice, m.contextLength, flagOrNull(m.toolCalling), m.kind, m.imagePrice,
    m.cachedInputPrice ?? null, m.cacheWritePrice ?? null,
    m.imagePrices && Object.keys(m.imagePrices).length > 0 ? JSON.stringify(m.imagePrices) : null,
    m.defaultMaxTokens ?? null, m.maxOutputTokens ?? null, flagOrNull(m.imageInput),
  ];
  const sql = `INSERT INTO models (name, input_price, output_price, context_length, tool_calling, kind, image_price, cached_input_price, cache_write_price, image_prices, default_max_tokens, max_output_tokens, image_input)
    VALUES (${values.map((_, i) => placeholder(i + 1)).join(', ')})
    ON CONFLICT (name) DO UPDATE SET input_price = excluded.input_price, output_price = excluded.output_price,
      context_length = COALESCE(excluded.context_length, models.context_length),
      tool_calling = excluded.tool_calling,
      kind = excluded.kind, image_price = excluded.image_price,
      cached_input_price = excluded.cached_input_price, cache_write_price = excluded.cache_write_price,
      image_prices = excluded.image_prices,
      default_max_tokens = COALESCE(excluded.default_max_tokens, models.default_max_tokens),
      ${maxOutputUpdate(placeholder(values.length + 1))},
      ${imageInputUpdate(placeholder(values.length + 2))}`;
  // The two flags last, in this order: SQLite's placeholders are positional.
  return { sql, values: [...values, m.maxOutputTokens === undefined ? 0 : 1, m.imageInput === undefined ? 0 : 1] };
}
