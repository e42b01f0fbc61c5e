/** The Store in process memory: tests, and runtimes without node:sqlite. Same behaviour as SqliteStore, nothing persists. */
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { assertAmount, debitsOf, overCeiling } from './amounts.ts';
import { auditRow, matchesAudit } from './audit.ts';
import { newestFirst } from './newestFirst.ts';
import { MemoryAdminTokens } from './memoryAdminTokens.ts';
import { MemoryRequestLogs } from './memoryRequestLogs.ts';
import { MemoryCodes } from './memoryCodes.ts';
import { MemorySettings } from './memorySettings.ts';
import { MemorySignUps } from './memorySignUps.ts';
import { signUpNameTaken } from './signUpTypes.ts';
import { usersReading } from './keyUsers.ts';
import { chooseNamed, sameName, userNameTaken } from './userNames.ts';
import { assertKeyLimits, KeyUsageCounters, newKeyLimits, type KeyLimits, type KeyUsageTotals, type KeyUsageQuery } from './keySettings.ts';
import { lastAdmin, OverdrawnBatch, StoreError } from './types.ts';
import { compareNames } from '../../contract/index.ts';
import { nameHolds, type UserPage, type UserWithAccount } from './userPages.ts';
import type { GatewayTotals } from './totals.ts';
import type {
  AccountRecord, AuditEntry, AuditFilter, AuditRecord, ChannelChanges, ChannelRecord, CodeFilter, CodeTarget, KeyRecord, ModelRecord, NewChannel, NewKey, NewRedemptionCode,
  NewSession, NewSignUp, NewUser, Redeemer, Redemption, RedemptionCodeRecord, SessionRecord, Snapshot, Status, Store, StoredLog, UserChange, UserRecord, WriteBatch,
} from './types.ts';

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  #accounts: AccountRecord[] = [];
  #keys: KeyRecord[] = [];
  readonly #usage = new KeyUsageCounters();
  #users: UserRecord[] = [];
  #sessions = new Map<string, SessionRecord>();
  #channels: ChannelRecord[] = [];
  #models = new Map<string, ModelRecord>();
  #audit: AuditRecord[] = [];
  #nextId = 1;
  readonly #hooks = {
    id: () => this.#id(), audited: <T>(audit: AuditEntry | undefined, change: () => T): T => this.#audited(audit, change), userExists: (id: number) => this.#users.some((u) => u.id === id),
  };
  readonly adminTokens = new MemoryAdminTokens(this.#hooks);
  readonly #codes = new MemoryCodes(this.#hooks);
  readonly settings = new MemorySettings(this.#hooks, () => this.#version++);
  readonly requestLogs = new MemoryRequestLogs((id) => this.#accounts.find((a) => a.id === id)?.name ?? null);
  readonly signUps = new MemorySignUps(this.#codes, this.#hooks, (request, now) => this.#openOwnAccount(request, now));
  #version = 1;
  #seenVersion = 0;

  #id(): number {
    return this.#nextId++;
  }

  changedSinceLastCheck(): boolean {
    const changed = this.#version !== this.#seenVersion;
    this.#seenVersion = this.#version;
    return changed;
  }

  /** Accounts and keys read with their users' state, as the SQL stores read them (keyUsers.ts). */
  async snapshot(): Promise<Snapshot> {
    const read = usersReading(this.#users);
    return { accounts: this.#accounts.map(read.account), keys: this.#keys.map(read.key), channels: [...this.#channels], models: [...this.#models.values()] };
  }

  /**
   * A change with its audit row, all or nothing: the row is checked (no secret in it) before `change`
   * runs, and `change` checks everything before it changes anything, so a refusal leaves both untouched.
   */
  #audited<T>(audit: AuditEntry | undefined, change: () => T): T {
    const row = audit ? auditRow(audit) : null;
    const result = change();
    if (row) this.#audit.push({ ...row, id: this.#id(), time: Date.now(), details: row.details === null ? null : JSON.parse(row.details) } as AuditRecord);
    return result;
  }

  async appendAudit(entry: AuditEntry): Promise<AuditRecord> {
    this.#audited(entry, () => undefined);
    return this.#audit.at(-1)!;
  }

  async listAudit(filter: AuditFilter): Promise<AuditRecord[]> {
    return newestFirst(this.#audit, filter.limit, (row) => matchesAudit(filter, row));
  }

  async createAccount(name: string, balance: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(balance, 0);
    return this.#audited(audit, () => {
      if (this.#accounts.some((a) => a.name === name)) throw new StoreError('conflict', `account "${name}" already exists`);
      const account: AccountRecord = { id: this.#id(), name, balance, totalSpent: 0, createdAt: Date.now() };
      this.#accounts.push(account);
      this.#version++;
      return account;
    });
  }

  async backup(): Promise<void> {
    throw new StoreError('invalid', 'a gateway in memory keeps nothing to back up');
  }

  async topUp(name: string, amount: number, audit?: AuditEntry): Promise<AccountRecord> {
    assertAmount(amount);
    return this.#audited(audit, () => {
      const index = this.#accounts.findIndex((a) => a.name === name);
      if (index < 0) throw new StoreError('not_found', `no account named "${name}"`);
      if (this.#accounts[index]!.balance + amount > MAX_BALANCE_MICRO) throw overCeiling(this.#accounts[index]!, amount);
      const account = { ...this.#accounts[index]!, balance: this.#accounts[index]!.balance + amount };
      this.#accounts[index] = account;
      this.#version++;
      return account;
    });
  }

  async getAccount(name: string): Promise<AccountRecord | null> {
    return this.#accounts.find((a) => a.name === name) ?? null;
  }

  /** `record` added to `list`; a name taken already is a conflict. */
  #addNamed<T extends { readonly name: string }>(list: T[], what: string, record: T): T {
    if (list.some((r) => r.name === record.name)) throw new StoreError('conflict', `a ${what} named "${record.name}" already exists`);
    list.push(record);
    this.#version++;
    return record;
  }

  /** The row of `list` named `name` changed; no such row is not found. */
  #changeNamed<T extends { readonly name: string }>(list: T[], what: string, name: string, change: Partial<T>): void {
    const index = list.findIndex((r) => r.name === name);
    if (index < 0) throw new StoreError('not_found', `no ${what} named "${name}"`);
    list[index] = { ...list[index]!, ...change };
    this.#version++;
  }

  async createUser(user: NewUser, audit?: AuditEntry): Promise<UserRecord> {
    const taken = this.#users.find((u) => sameName(u.name, user.name));
    if (taken) throw userNameTaken(user.name, taken.name);
    return this.#audited(audit, () => this.#addNamed<UserRecord>(this.#users, 'user', { ...user, id: this.#id(), status: 'enabled', createdAt: Date.now(), lastSignInAt: null }));
  }

  async listUsers(): Promise<UserRecord[]> {
    return [...this.#users];
  }

  async findUser(by: { readonly id: number } | { readonly name: string }): Promise<UserRecord | null> {
    if ('id' in by) return this.#users.find((u) => u.id === by.id) ?? null;
    const named = this.#users.filter((u) => sameName(u.name, by.name)).sort((a, b) => Number(b.name === by.name) - Number(a.name === by.name) || a.id - b.id);
    return chooseNamed(named, by.name);
  }

  async totals(): Promise<GatewayTotals> {
    const sum = (pick: (a: AccountRecord) => number): number => this.#accounts.reduce((n, a) => n + pick(a), 0);
    return { users: this.#users.length, accounts: this.#accounts.length, keys: this.#keys.length, channels: this.#channels.length, balance: sum((a) => a.balance), spent: sum((a) => a.totalSpent) };
  }

  async pageUsers({ q, after = 0, limit }: UserPage): Promise<UserWithAccount[]> {
    const withAccounts = this.#users.map((user) => ({ user, account: this.#accounts.find((a) => a.id === user.accountId) ?? null }));
    return withAccounts.filter(({ user, account }) => user.id > after && (q === '' || nameHolds(user.name, q) || nameHolds(account?.name, q))).slice(0, limit);
  }

  /** With `keepAnAdmin`: refuses when `name` is the only enabled admin and `change` would take that away. */
  #changeUser(name: string, change: Partial<UserRecord>, options: UserChange | undefined): void {
    const user = this.#users.find((u) => u.name === name);
    if (options?.keepAnAdmin && user && user.admin && user.status === 'enabled' && (change.admin === false || change.status === 'disabled')
      && !this.#users.some((u) => u.name !== name && u.admin && u.status === 'enabled')) {
      throw lastAdmin(name);
    }
    this.#audited(options?.audit, () => this.#changeNamed(this.#users, 'user', name, change));
  }

  async setUserStatus(name: string, status: Status, change?: UserChange): Promise<void> {
    this.#changeUser(name, { status }, change);
    if (status === 'disabled') this.#revokeUserSessions(name);
  }

  async setUserPassword(name: string, passwordHash: string, audit?: AuditEntry): Promise<void> {
    this.#changeUser(name, { passwordHash }, audit ? { audit } : undefined);
    this.#revokeUserSessions(name);
  }

  async setUserAdmin(name: string, admin: boolean, change?: UserChange): Promise<void> {
    this.#changeUser(name, { admin }, change);
  }

  #revokeUserSessions(userName: string): void {
    const user = this.#users.find((u) => u.name === userName)!;
    const now = Date.now();
    for (const [idHash, s] of this.#sessions) if (s.userId === user.id && s.revokedAt === null) this.#sessions.set(idHash, { ...s, revokedAt: now });
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    if (!this.#users.some((u) => u.id === session.userId)) throw new StoreError('not_found', 'no such user');
    if (this.#sessions.has(session.idHash)) throw new StoreError('conflict', 'a session with this id exists already');
    const record: SessionRecord = { ...session, lastSeenAt: session.createdAt, revokedAt: null };
    this.#sessions.set(session.idHash, record);
    const index = this.#users.findIndex((u) => u.id === session.userId);
    this.#users[index] = { ...this.#users[index]!, lastSignInAt: session.createdAt };
    return record;
  }

  async findSession(idHash: string): Promise<SessionRecord | null> {
    return this.#sessions.get(idHash) ?? null;
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    const s = this.#sessions.get(idHash);
    if (s) this.#sessions.set(idHash, { ...s, lastSeenAt: Math.max(s.lastSeenAt, at) });
  }

  async revokeSession(idHash: string, at: number): Promise<void> {
    const s = this.#sessions.get(idHash);
    if (s && s.revokedAt === null) this.#sessions.set(idHash, { ...s, revokedAt: at });
  }

  async deleteEndedSessions(now: number, idleSince: number): Promise<number> {
    let deleted = 0;
    for (const [idHash, s] of this.#sessions) {
      if (s.expiresAt <= now || s.lastSeenAt < idleSince || s.revokedAt !== null) {
        this.#sessions.delete(idHash);
        deleted++;
      }
    }
    return deleted;
  }

  async createCodes(codes: readonly NewRedemptionCode[], audit?: AuditEntry): Promise<RedemptionCodeRecord[]> {
    return this.#codes.create('redemption', codes, audit);
  }

  async listCodes(filter: CodeFilter): Promise<RedemptionCodeRecord[]> {
    return this.#codes.list('redemption', filter);
  }

  async disableCodes(target: CodeTarget, audit?: AuditEntry): Promise<number> {
    return this.#codes.disable('redemption', target, audit);
  }

  /** One synchronous step (nothing else runs in between): checked, marked and credited together. */
  async redeemCode(hash: string, by: Redeemer, now: number): Promise<Redemption | null> {
    const code = this.#codes.usable('redemption', hash, now);
    if (!code) return null;
    const at = this.#accounts.findIndex((a) => a.id === by.accountId);
    if (at < 0) throw new StoreError('not_found', `no account with id ${by.accountId}`);
    const before = this.#accounts[at]!;
    if (before.balance + code.value > MAX_BALANCE_MICRO) throw overCeiling(before, code.value);
    const account: AccountRecord = { ...before, balance: before.balance + code.value };
    const used = this.#codes.mark('redemption', hash, by, now);
    this.#accounts[at] = account;
    this.#version++;
    return { code: used, account };
  }

  /** A sign-up's account (with its balance) and user, in one synchronous step; a name a user or an account has is a conflict. */
  #openOwnAccount(request: NewSignUp, now: number): { account: AccountRecord; user: UserRecord } {
    if (this.#accounts.some((a) => a.name === request.name) || this.#users.some((u) => sameName(u.name, request.name))) throw signUpNameTaken(request.name);
    const account: AccountRecord = { id: this.#id(), name: request.name, balance: request.balance, totalSpent: 0, createdAt: now };
    const user: UserRecord = { id: this.#id(), name: request.name, accountId: account.id, admin: false, status: 'enabled', passwordHash: request.passwordHash, createdAt: now, lastSignInAt: null };
    this.#accounts.push(account);
    this.#users.push(user);
    this.#version++;
    return { account, user };
  }

  async createKey(key: NewKey): Promise<KeyRecord> {
    if (!this.#accounts.some((a) => a.id === key.accountId)) throw new StoreError('not_found', 'no such account');
    if (this.#keys.some((k) => k.accountId === key.accountId && k.name === key.name)) throw new StoreError('conflict', `a key named "${key.name}" already exists on this account`);
    const { limits: _, ...rest } = key;
    const record: KeyRecord = { ...rest, ...newKeyLimits(key), userId: key.userId ?? null, disabledCreator: null, id: this.#id(), status: 'enabled', createdAt: Date.now(), lastUsedAt: null };
    this.#keys.push(record);
    this.#version++;
    return usersReading(this.#users).key(record);
  }

  #changeKey(id: number, change: Partial<KeyRecord>): void {
    const index = this.#keys.findIndex((k) => k.id === id);
    if (index < 0) throw new StoreError('not_found', `no key with id ${id}`);
    this.#keys[index] = { ...this.#keys[index]!, ...change };
    this.#version++;
  }

  async listKeys(accountId?: number): Promise<KeyRecord[]> {
    return this.#keys.filter((k) => accountId === undefined || k.accountId === accountId).map(usersReading(this.#users).key);
  }

  async setKeyStatus(id: number, status: Status): Promise<void> {
    this.#changeKey(id, { status });
  }

  async setKeySecret(id: number, hash: string, prefix: string): Promise<void> {
    if (this.#keys.some((k) => k.hash === hash)) throw new StoreError('conflict', 'a key with this secret exists already');
    this.#changeKey(id, { hash, prefix });
  }

  async setKeyLimits(id: number, limits: KeyLimits, audit?: AuditEntry): Promise<void> {
    assertKeyLimits(limits);
    this.#audited(audit, () => this.#changeKey(id, { ...limits }));
  }

  async keyUsage(queries: readonly KeyUsageQuery[]): Promise<Map<number, KeyUsageTotals>> {
    return this.#usage.query(queries);
  }

  async deleteKey(id: number): Promise<boolean> {
    this.#usage.delete(id);
    const before = this.#keys.length;
    this.#keys = this.#keys.filter((k) => k.id !== id);
    this.#version++;
    return this.#keys.length < before;
  }

  async addChannel(channel: NewChannel, audit?: AuditEntry): Promise<ChannelRecord> {
    return this.#audited(audit, () => this.#addNamed<ChannelRecord>(this.#channels, 'channel', { ...channel, id: this.#id(), status: 'enabled', createdAt: Date.now() }));
  }

  async listChannels(): Promise<ChannelRecord[]> {
    return [...this.#channels];
  }

  async setChannelStatus(name: string, status: Status, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => this.#changeNamed(this.#channels, 'channel', name, { status }));
  }

  async updateChannel(name: string, changes: ChannelChanges, audit?: AuditEntry): Promise<ChannelRecord> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ChannelChanges;
    if (Object.keys(given).length === 0) throw new StoreError('invalid', 'a channel update must change something');
    return this.#audited(audit, () => {
      this.#changeNamed<ChannelRecord>(this.#channels, 'channel', name, given as Partial<ChannelRecord>);
      return this.#channels.find((c) => c.name === name)!;
    });
  }

  async removeChannel(name: string, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => {
      const before = this.#channels.length;
      this.#channels = this.#channels.filter((c) => c.name !== name);
      if (this.#channels.length === before) throw new StoreError('not_found', `no channel named "${name}"`);
      this.#version++;
    });
  }

  async setModel(model: ModelRecord, audit?: AuditEntry): Promise<void> {
    this.#audited(audit, () => {
      const old = this.#models.get(model.name);
      this.#models.set(model.name, {
        ...model,
        contextLength: model.contextLength ?? old?.contextLength ?? null,
        defaultMaxTokens: model.defaultMaxTokens ?? old?.defaultMaxTokens ?? null,
        // Absent keeps it; null removes it (ModelRecord.maxOutputTokens).
        maxOutputTokens: model.maxOutputTokens === undefined ? (old?.maxOutputTokens ?? null) : model.maxOutputTokens,
        toolCalling: model.toolCalling,
        imageInput: model.imageInput === undefined ? (old?.imageInput ?? null) : model.imageInput,
      });
      this.#version++;
    });
  }

  async listModels(): Promise<ModelRecord[]> {
    return [...this.#models.values()].sort((a, b) => compareNames(a.name, b.name));
  }

  async write(batch: WriteBatch): Promise<void> {
    // As the SQL stores: a batch that would take a balance below $0 is refused whole, with what each account can pay.
    const debits = debitsOf(batch.logs);
    const balances = new Map(this.#accounts.filter((a) => debits.has(a.id)).map((a) => [a.id, a.balance]));
    if ([...balances].some(([id, balance]) => debits.get(id)! > balance)) throw new OverdrawnBatch(balances);
    const rows: StoredLog[] = [];
    for (const log of batch.logs) {
      const account = log.accountId === null ? undefined : this.#accounts.find((a) => a.id === log.accountId);
      // As a SQL row reads back: an optional field not given is null.
      rows.push({
        ...log, id: this.#id(), accountName: account?.name ?? null, completionCap: log.completionCap ?? null, attempts: log.attempts ?? null,
        upstreamModel: log.upstreamModel ?? null, userAgent: log.userAgent ?? null, clientIp: log.clientIp ?? null,
      });
      if (account && log.cost > 0) {
        const index = this.#accounts.indexOf(account);
        this.#accounts[index] = { ...account, balance: account.balance - log.cost, totalSpent: account.totalSpent + log.cost };
      }
    }
    this.requestLogs.append(rows, batch.logs);
    this.#usage.add(batch.logs);
    for (const [keyId, at] of batch.keysUsed) {
      const index = this.#keys.findIndex((k) => k.id === keyId);
      if (index >= 0) this.#keys[index] = { ...this.#keys[index]!, lastUsedAt: Math.max(this.#keys[index]!.lastUsedAt ?? 0, at) };
    }
  }

  async pruneLogs(before: number): Promise<number> {
    return this.requestLogs.prune(before);
  }

  async listLogs(limit: number): Promise<StoredLog[]> {
    return this.requestLogs.newest(limit);
  }

  async listKeyLogs(keyId: number, limit: number): Promise<StoredLog[]> {
    return this.requestLogs.ofKey(keyId, limit);
  }

  async close(): Promise<void> {}
}
