/**
 * The gateway's persistent state behind one small interface: SQLite (node:sqlite) for a
 * local data folder, memory for tests and old runtimes, PostgreSQL (postgres.ts) for deployments
 * that outgrow one machine. Money is integer micro-USD; times are epoch milliseconds.
 *
 * The request path never reads the store per request: the gateway caches a snapshot and
 * asks `changedSinceLastCheck()` (cheap) whether another writer changed it.
 */
import type { ModelKind, ChannelType } from '../../contract/index.ts';
import type { RequestLogStore } from './requestLogs.ts';
import type { KeyLimitStore, LeaseStore } from './instances.ts';
import type { KeyLimits, KeyUsageTotals, KeyUsageQuery } from './keySettings.ts';
import type { AdminTokenStore } from './tokenTypes.ts';
import type { CodeFilter, CodeTarget, NewRedemptionCode, Redeemer, Redemption, RedemptionCodeRecord } from './codeTypes.ts';
import type { SettingsStore } from './settingsTypes.ts';
import type { SignUpStore } from './signUpTypes.ts';
import type { UserPage, UserWithAccount } from './userPages.ts';
import type { GatewayTotals } from './totals.ts';
import type { UsersDisabled } from './keyUsers.ts';
import type { AuditEntry, AuditFilter, AuditRecord } from './auditTypes.ts';

export type { AdminTokenRecord, AdminTokenStore, NewAdminToken } from './tokenTypes.ts';
export type {
  CodeFilter, CodeKind, CodeKinds, CodeStatus, CodeTarget, InvitationRecord, NewInvitation, NewRedemptionCode, Redeemer, Redemption, RedemptionCodeRecord, SingleUseCode,
} from './codeTypes.ts';
export type { SettingChanges, SettingsStore, StoredSettings } from './settingsTypes.ts';
export type { NewSignUp, SignedUp, SignUpStore } from './signUpTypes.ts';
export type { AuditEntry, AuditFilter, AuditRecord } from './auditTypes.ts';

export type Status = 'enabled' | 'disabled';

export interface AccountRecord {
  readonly id: number;
  readonly name: string;
  /** Micro-USD. */
  readonly balance: number;
  /** Micro-USD charged so far. */
  readonly totalSpent: number;
  readonly createdAt: number;
  /** Read with the snapshot's accounts (keyUsers.ts): its users, when it has some and none is enabled (its keys are refused); absent on other reads. */
  readonly usersDisabled?: UsersDisabled | null;
}

/** A key, with its limits (keySettings.ts: rpm, concurrency, tpm, rpd, spending limit and period, IP allow-list). */
export interface KeyRecord extends KeyLimits {
  readonly id: number;
  readonly accountId: number;
  /** The user who made it (console, device sign-in, playground); null: made by the CLI, or before keys remembered it. */
  readonly userId: number | null;
  /** Read with the key (keyUsers.ts): that user's name while they are disabled (the key is refused), else null. */
  readonly disabledCreator: string | null;
  readonly name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  readonly hash: string;
  /** Short non-secret start of the key for display, e.g. "sk-AbCd…". */
  readonly prefix: string;
  readonly status: Status;
  /** Allowed platform model names; null means every model. */
  readonly models: readonly string[] | null;
  readonly expiresAt: number | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

export interface NewKey {
  readonly accountId: number;
  /** The user making it, when a user does (absent or null: the CLI). */
  readonly userId?: number | null;
  readonly name: string;
  readonly hash: string;
  readonly prefix: string;
  readonly models: readonly string[] | null;
  readonly expiresAt: number | null;
  readonly rpm: number;
  readonly concurrency: number;
  /** The other limits; absent ones: none (NO_EXTRA_LIMITS). */
  readonly limits?: Partial<Omit<KeyLimits, 'rpm' | 'concurrency'>>;
}

/** A person who signs in to the console: their account holds the balance their keys spend. */
export interface UserRecord {
  readonly id: number;
  readonly name: string;
  readonly accountId: number;
  readonly admin: boolean;
  readonly status: Status;
  /** A slow salted hash with its parameters (accounts/passwords.ts); never the password. */
  readonly passwordHash: string;
  readonly createdAt: number;
  /** The user's latest sign-in (a session started); null when unknown (never, or before schema 15). */
  readonly lastSignInAt: number | null;
}

export type NewUser = Pick<UserRecord, 'name' | 'accountId' | 'admin' | 'passwordHash'>;

/** How a change of a user is made: recorded in the audit log, and (console) refused when it would leave no enabled admin. */
export interface UserChange {
  readonly audit?: AuditEntry;
  /** Refuse with StoreError 'last_admin' when no enabled admin but this user would remain, checked under the change's lock. */
  readonly keepAnAdmin?: boolean;
}

/** A console sign-in. The session id itself lives only in the browser's cookie; the store keeps its SHA-256. */
export interface SessionRecord {
  /** SHA-256 of the session id, hex. */
  readonly idHash: string;
  readonly userId: number;
  readonly createdAt: number;
  /** The last request made with it (updated at most once a minute): the idle expiry counts from here. */
  readonly lastSeenAt: number;
  /** The absolute end, whatever the use. */
  readonly expiresAt: number;
  /** Set on sign-out, password change, or the user being disabled; a revoked session never comes back. */
  readonly revokedAt: number | null;
}

export type NewSession = Pick<SessionRecord, 'idHash' | 'userId' | 'createdAt' | 'expiresAt'>;

export interface ChannelRecord {
  readonly id: number;
  readonly name: string;
  readonly type: ChannelType;
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  /** Platform model name -> upstream model name. */
  readonly models: Readonly<Record<string, string>>;
  readonly priority: number;
  readonly weight: number;
  readonly status: Status;
  readonly timeoutMs: number;
  readonly proxy: string | null;
  /**
   * The upstream serves the OpenAI Responses API as well (openai channels): Responses requests pass
   * through unchanged instead of being converted to chat. Null or absent: assumed for api.openai.com only.
   */
  readonly responsesApi?: boolean | null;
  readonly createdAt: number;
  /**
   * Its secrets that could not be opened (sealed with another secret key: a folder restored without its secret.key),
   * read as none: the channel serves nothing until they are given again (channel update). Absent when none.
   */
  readonly unreadable?: readonly string[];
}

export type NewChannel = Omit<ChannelRecord, 'id' | 'createdAt' | 'status' | 'unreadable'>;

/** What an update of a channel changes: the fields given (`apiKey` null removes the key); its name stays. */
export type ChannelChanges = Partial<Omit<NewChannel, 'name'>>;

export interface ModelRecord {
  readonly name: string;
  /** Micro-USD per million prompt tokens. */
  readonly inputPrice: number;
  /** Micro-USD per million completion tokens. */
  readonly outputPrice: number;
  readonly contextLength: number | null;
  /** It calls tools; null: not said. Written as it is (null clears it): the price rules resolve what is kept. */
  readonly toolCalling: boolean | null;
  /**
   * It takes images as input (VS Code's chat lets users attach them only then); null (or absent): not said.
   * Written: absent keeps the stored value, null clears it.
   */
  readonly imageInput?: boolean | null;
  /** Which endpoint the model is for. */
  readonly kind: ModelKind;
  /** Micro-USD per generated image (image models); null elsewhere. */
  readonly imagePrice: number | null;
  /** Micro-USD per image for a size, a quality or both ("1024x1792", "hd", "1024x1792,hd"); the default is imagePrice. */
  readonly imagePrices?: Readonly<Record<string, number>> | null;
  /** Micro-USD per million input tokens read from the upstream's prompt cache; null (or absent): the input price. */
  readonly cachedInputPrice?: number | null;
  /** Micro-USD per million input tokens written to the upstream's prompt cache; null (or absent): the input price. */
  readonly cacheWritePrice?: number | null;
  /** The completion cap when a client asks for none; null (or absent): 8192, or the context length when smaller. */
  readonly defaultMaxTokens?: number | null;
  /** The most it writes in one answer (a larger cap is lowered to it); null: none. Written: absent keeps it, null removes it. */
  readonly maxOutputTokens?: number | null;
}

export interface RequestLog {
  readonly time: number;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly accountId: number | null;
  /** The key the request authenticated with (null before authentication). */
  readonly keyId: number | null;
  readonly keyName: string | null;
  readonly model: string | null;
  readonly channel: string | null;
  readonly status: number;
  readonly errorCode: string | null;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly usageEstimated: boolean;
  /** Micro-USD debited from `accountId` for this request. */
  readonly cost: number;
  readonly latencyMs: number;
  readonly firstByteMs: number | null;
  readonly stream: boolean;
  /** The completion cap the gateway set or lowered to (what the account could pay, or the model's default); null when the client's own cap stood. */
  readonly completionCap?: number | null;
  /** The channels that failed before the one that ended the request, as JSON ([{channel, code, detail, ms}]); null when none did. */
  readonly attempts?: string | null;
  /** The model's name at the upstream of `channel` (a channel may map it); null when no channel was tried. */
  readonly upstreamModel?: string | null;
  /** The client's User-Agent, at most MAX_USER_AGENT characters; null when it sent none. */
  readonly userAgent?: string | null;
  /** The address the request came from (the proxy's X-Forwarded-For entry behind a trusted proxy). */
  readonly clientIp?: string | null;
}

export interface StoredLog extends RequestLog {
  readonly id: number;
  readonly accountName: string | null;
}

export interface Snapshot {
  /** Every account, or with `removedKeys` only those written since the cursor asked for. */
  readonly accounts: readonly AccountRecord[];
  /** The same for keys. */
  readonly keys: readonly KeyRecord[];
  readonly channels: readonly ChannelRecord[];
  readonly models: readonly ModelRecord[];
  /** Present when the snapshot holds only what was written since a cursor: the keys deleted since. */
  readonly removedKeys?: readonly number[];
  /** Where a later snapshot(cursor) starts (writtenSince.ts); a store without stamps (memory) has none. */
  readonly cursor?: string;
}

/** One transaction: the logs, their debits (sum of `cost` per account, applied relatively) and key last-use times. */
export interface WriteBatch {
  /**
   * Set by the log writer, kept when the batch is retried whole: a store whose commit's answer can be
   * lost (PostgreSQL) applies a batch id once, so a retry after a commit that did land changes nothing.
   */
  readonly id?: string;
  readonly logs: readonly RequestLog[];
  readonly keysUsed: ReadonlyMap<number, number>;
}

/** `last_admin`: the change would leave the gateway without an enabled admin (UserChange.keepAnAdmin). */
export type StoreErrorCode = 'not_found' | 'conflict' | 'invalid' | 'last_admin';

/** An admin operation that cannot be done; `code` is stable, the message is for people. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}

/**
 * A log batch refused because its debits would take an account below $0 (nothing written). It happens to an
 * instance on PostgreSQL whose balance lease was reclaimed while it was paused past the lease, after others
 * spent the money: `payable` says what each of the batch's accounts can pay now (balance less what other
 * instances hold), so that the writer can log the rest of the charges as withheld (logChargesWithheld.ts).
 */
export class OverdrawnBatch extends StoreError {
  readonly payable: ReadonlyMap<number, number>;
  constructor(payable: ReadonlyMap<number, number>) {
    super('invalid', 'a batch of request logs was refused whole: its debits would take a balance below $0 (nothing was written)');
    this.name = 'OverdrawnBatch';
    this.payable = payable;
  }
}

/** The refusal of a change that would leave the gateway without an enabled admin (UserChange.keepAnAdmin). */
export function lastAdmin(name: string): StoreError {
  return new StoreError('last_admin', `"${name}" is the last enabled admin: make another user admin first, so that someone can still run the gateway`);
}

export type StoreKind = 'sqlite' | 'memory' | 'postgres';

export interface Store {
  readonly kind: StoreKind;
  /** Present on a store several gateway processes may share (PostgreSQL): keys' limits hold across instances. */
  readonly keyLimits?: KeyLimitStore;
  /** Present on a store several gateway processes may share (PostgreSQL): the request path spends from leases. */
  readonly leases?: LeaseStore;
  /** Admin access tokens (scripts' credentials for the admins' management API). */
  readonly adminTokens: AdminTokenStore;
  /** Gateway settings admins change at run time (a change is a change of the snapshot: every instance reloads it). */
  readonly settings: SettingsStore;
  /** Invitation codes, and self sign-up: a user and an account made in one step with the invitation's use. */
  readonly signUps: SignUpStore;
  /** The logs pages' and dashboards' reads (the log rows are written by write()). */
  readonly requestLogs: RequestLogStore;

  /** True when the data may have changed (by this process's admin calls or another process) since the last call. Cheap. */
  changedSinceLastCheck(): boolean;
  /** Everything the request path keeps in memory; with `since` (an earlier snapshot's cursor), the accounts and keys written since. */
  snapshot(since?: string | null): Promise<Snapshot>;

  /** `audit`, when given, is written in the same transaction as the change (so for every admin change below). */
  createAccount(name: string, balance: number, audit?: AuditEntry): Promise<AccountRecord>;
  topUp(name: string, amount: number, audit?: AuditEntry): Promise<AccountRecord>;
  /** Writes a consistent copy of the store into the new file `target`. */
  backup(target: string): Promise<void>;
  getAccount(name: string): Promise<AccountRecord | null>;

  createUser(user: NewUser, audit?: AuditEntry): Promise<UserRecord>;
  listUsers(): Promise<UserRecord[]>;
  /** One user, by id or name, through the index: what a console request needs, never every user. */
  findUser(by: { readonly id: number } | { readonly name: string }): Promise<UserRecord | null>;
  /** One page of the users list with their accounts (userPages.ts): the admins' users page, without reading everyone. */
  pageUsers(page: UserPage): Promise<UserWithAccount[]>;
  /** How many users, accounts, keys and channels there are, and the money in the accounts (totals.ts). */
  totals(): Promise<GatewayTotals>;
  /** Disabling a user revokes their sessions in the same step. */
  setUserStatus(name: string, status: Status, change?: UserChange): Promise<void>;
  /** Revokes the user's sessions in the same step: a changed password signs every browser out. */
  setUserPassword(name: string, passwordHash: string, audit?: AuditEntry): Promise<void>;
  setUserAdmin(name: string, admin: boolean, change?: UserChange): Promise<void>;

  /** An admin action that changed nothing in the store by itself (written alone). */
  appendAudit(entry: AuditEntry): Promise<AuditRecord>;
  /** Newest first. */
  listAudit(filter: AuditFilter): Promise<AuditRecord[]>;

  /** Also records the sign-in on the user (lastSignInAt), in the same step. */
  createSession(session: NewSession): Promise<SessionRecord>;
  findSession(idHash: string): Promise<SessionRecord | null>;
  /** Records use of a live session (for the idle expiry). */
  touchSession(idHash: string, at: number): Promise<void>;
  revokeSession(idHash: string, at: number): Promise<void>;
  /** Deletes sessions that ended: expired at `now`, idle since before `idleSince`, or revoked. Returns how many. */
  deleteEndedSessions(now: number, idleSince: number): Promise<number>;

  /**
   * Codes made in one step (all or none), with `audit`'s row in the same transaction; a hash taken already is
   * a conflict, a bad value invalid.
   */
  createCodes(codes: readonly NewRedemptionCode[], audit?: AuditEntry): Promise<RedemptionCodeRecord[]>;
  listCodes(filter: CodeFilter): Promise<RedemptionCodeRecord[]>;
  /**
   * Disables the codes not yet redeemed (one by id, or a whole batch), with `audit`'s row in the same
   * transaction; returns how many changed. No such id or batch is not found (and nothing is recorded).
   */
  disableCodes(target: CodeTarget, audit?: AuditEntry): Promise<number>;
  /**
   * ONE atomic step: the code with this hash is marked used by `accountId` only if it is unused, not
   * disabled and not expired at `now`, and the account's balance is credited its value in the same
   * transaction. Null (nothing changed) for an unknown, used, disabled or expired code; a credit past
   * the ceiling is refused (invalid) and leaves the code unused.
   */
  redeemCode(hash: string, by: Redeemer, now: number): Promise<Redemption | null>;

  /** A key name is unique on its account (another account may use it): a taken name is a conflict. */
  createKey(key: NewKey): Promise<KeyRecord>;
  /** Every key, oldest first; or one account's (a user's keys page, without reading everyone's). */
  listKeys(accountId?: number): Promise<KeyRecord[]>;
  /** Keys are changed by id: a name alone may be on several accounts (admin.ts keyNamed resolves one). */
  setKeyStatus(id: number, status: Status): Promise<void>;
  deleteKey(id: number): Promise<boolean>;
  /** A new secret (its hash and display prefix) for the key `id`, every other setting kept: rotation. */
  setKeySecret(id: number, hash: string, prefix: string): Promise<void>;
  /** Every limit of the key `id` at once (checked by keySettings.ts); its secret, models, expiry and status kept. */
  setKeyLimits(id: number, limits: KeyLimits, audit?: AuditEntry): Promise<void>;
  /** Per key asked: its spending since a UTC day and its requests on a UTC day, from key_usage (zero for none). */
  keyUsage(queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>>;

  addChannel(channel: NewChannel, audit?: AuditEntry): Promise<ChannelRecord>;
  listChannels(): Promise<ChannelRecord[]>;
  setChannelStatus(name: string, status: Status, audit?: AuditEntry): Promise<void>;
  /** Changes the fields given and returns the channel as it now is; no change at all is invalid, no such name not found. */
  updateChannel(name: string, changes: ChannelChanges, audit?: AuditEntry): Promise<ChannelRecord>;
  removeChannel(name: string, audit?: AuditEntry): Promise<void>;

  setModel(model: ModelRecord, audit?: AuditEntry): Promise<void>;
  listModels(): Promise<ModelRecord[]>;

  /** Applies one batch atomically. */
  write(batch: WriteBatch): Promise<void>;
  /** Newest first. */
  listLogs(limit: number): Promise<StoredLog[]>;
  /** Deletes the request logs from before `time` (epoch ms); returns how many. Balances are untouched. */
  pruneLogs(before: number): Promise<number>;
  /** The logs of one key, newest first (indexed: cheap however many logs other keys have). */
  listKeyLogs(keyId: number, limit: number): Promise<StoredLog[]>;

  close(): Promise<void>;
}
