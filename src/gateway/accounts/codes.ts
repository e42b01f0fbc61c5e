/**
 * Redemption codes (top-up, issue 10), and the form of every single-use code (invitation codes too,
 * invitations.ts, with the prefix MGI): a code is 100 random bits
 * as MGC-XXXX-XXXX-XXXX-XXXX-XXXX in Crockford's base32 (no I, L, O, U: nothing to misread), shown once
 * when made and kept by the store only as the SHA-256 of that canonical form, like an API key. What a
 * person types is normalised first (case, dashes and spaces, O for 0, I and L for 1), so a code copied
 * with a space or in lower case still works. Guessing one is out of reach: 2^100 codes, and wrong tries
 * throttled per account and per address (routes/consoleRedeem.ts). Making and disabling codes are admin
 * actions, the same from the CLI and the console: each is written with its audit row (code.create,
 * code.disable; never a code) in one store step.
 */
import { createHash, randomInt } from 'node:crypto';
import { formatMicroUsd } from '../../contract/index.ts';
import type { CodeTarget, Redeemer, Redemption, RedemptionCodeRecord, Store } from '../store/types.ts';
import { auditEntry, type Acting } from './userAdmin.ts';
import { NO_BATCH } from '../../contract/values.ts';

export const CODE_PREFIX = 'MGC';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 5;
const GROUP_LENGTH = 4;
const LENGTH = GROUPS * GROUP_LENGTH;
/** Codes made at once, at most (the CLI's --count and the admin API's count). */
export { MAX_CODES_PER_BATCH } from '../../contract/index.ts';

function grouped(prefix: string, symbols: string): string {
  const groups: string[] = [];
  for (let i = 0; i < LENGTH; i += GROUP_LENGTH) groups.push(symbols.slice(i, i + GROUP_LENGTH));
  return `${prefix}-${groups.join('-')}`;
}

/** A new code beginning with `prefix` (MGC a redemption code, MGI an invitation), in its canonical form. */
export function newCode(prefix = CODE_PREFIX): string {
  let symbols = '';
  for (let i = 0; i < LENGTH; i++) symbols += ALPHABET[randomInt(ALPHABET.length)];
  return grouped(prefix, symbols);
}

export const newRedemptionCode = (): string => newCode(CODE_PREFIX);

/**
 * What a person typed, in the canonical form of a code beginning with `prefix`; null when it cannot be
 * one at all. The prefix may be left out; another code's prefix is not this one's.
 */
export function normalizeCode(typed: string, prefix: string): string | null {
  let symbols = typed.toUpperCase().replace(/[\s\-_.]/g, '');
  if (symbols.length === prefix.length + LENGTH && symbols.startsWith(prefix)) symbols = symbols.slice(prefix.length);
  // After the prefix is gone: the prefix's own letters (the I of MGI) are not misread digits.
  symbols = symbols.replace(/O/g, '0').replace(/[IL]/g, '1');
  if (symbols.length !== LENGTH || [...symbols].some((c) => !ALPHABET.includes(c))) return null;
  return grouped(prefix, symbols);
}

export const normalizeRedemptionCode = (typed: string): string | null => normalizeCode(typed, CODE_PREFIX);

/** What the store keeps of a code: the SHA-256 of its canonical form, hex (as keys.ts hashKey does for API keys). */
export function hashRedemptionCode(canonical: string): string {
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export interface CodeBatchRequest {
  /** Micro-USD each. */
  readonly value: number;
  readonly count: number;
  readonly batch: string | null;
  readonly expiresAt: number | null;
  /** The admin who asked; null from the CLI. */
  readonly createdBy: number | null;
  /** Who the audit log names: the admin's user name (and token), or CLI_ACTOR. */
  readonly acting: Acting;
}

/** The audit log's target for codes made or disabled without a batch name. */
export { NO_BATCH };

export interface MadeCode {
  readonly code: string;
  readonly record: RedemptionCodeRecord;
}

/** Makes `count` codes in one store step and returns them with their records: the only time the codes exist outside the people they are given to. */
export async function createCodeBatch(store: Store, request: CodeBatchRequest): Promise<MadeCode[]> {
  const codes = Array.from({ length: request.count }, () => newRedemptionCode());
  const audit = auditEntry(request.acting, 'code.create', request.batch ?? NO_BATCH, {
    batch: request.batch, count: request.count, value_micro_usd: request.value, value: formatMicroUsd(request.value),
    expires_at: request.expiresAt === null ? null : new Date(request.expiresAt).toISOString(),
  });
  const records = await store.createCodes(codes.map((code) => ({
    hash: hashRedemptionCode(code), value: request.value, batch: request.batch, expiresAt: request.expiresAt, createdBy: request.createdBy,
  })), audit);
  return records.map((record, i) => ({ code: codes[i]!, record }));
}

/** Disables the codes of `target` not yet used (used ones stay used), with its audit row; returns how many changed. */
export async function disableUnusedCodes(store: Store, target: CodeTarget, acting: Acting): Promise<number> {
  return store.disableCodes(target, auditEntry(acting, 'code.disable', 'batch' in target ? target.batch : `code ${target.id}`, { ...target }));
}

/** Redeems what a person typed for `by`: null for anything that is not an unused, enabled, unexpired code. */
export async function redeemTyped(store: Store, typed: string, by: Redeemer, now: number): Promise<Redemption | null> {
  const canonical = normalizeRedemptionCode(typed);
  return canonical === null ? null : store.redeemCode(hashRedemptionCode(canonical), by, now);
}

/** The names a code list shows: accounts and users by id. */
export interface CodeNames {
  readonly accounts: ReadonlyMap<number, string>;
  readonly users: ReadonlyMap<number, string>;
}

/** Every account's and user's name (the CLI's whole list). */
export async function codeNames(store: Store): Promise<CodeNames> {
  const [snap, users] = await Promise.all([store.snapshot(), store.listUsers()]);
  return { accounts: new Map(snap.accounts.map((a) => [a.id, a.name])), users: new Map(users.map((u) => [u.id, u.name])) };
}

/**
 * The names one page of codes or invitations shows, looked up for the ids on it: a page holds a few
 * dozen, the whole lists could hold tens of thousands. Accounts' names come from `accountName` (the
 * catalogue's, which follows every change).
 */
export async function namesOnPage(store: Store, accountName: (id: number) => string | undefined, rows: readonly CodeIds[]): Promise<CodeNames> {
  const userIds = new Set(rows.flatMap((r) => [r.createdBy, r.redeemedUserId]).filter((id) => id !== null));
  const users = await Promise.all([...userIds].map((id) => store.findUser({ id })));
  const accounts = new Map<number, string>();
  for (const r of rows) {
    const name = r.redeemedAccountId === null || r.redeemedAccountId === undefined ? undefined : accountName(r.redeemedAccountId);
    if (name !== undefined) accounts.set(r.redeemedAccountId!, name);
  }
  return { accounts, users: new Map(users.filter((u) => u !== null).map((u) => [u.id, u.name])) };
}

/** The ids a code or an invitation refers to. */
interface CodeIds {
  readonly createdBy: number | null;
  readonly redeemedUserId: number | null;
  readonly redeemedAccountId?: number | null;
}
