/**
 * Single-use codes (redemption and invitation codes, one table), the parts every store shares: a code's
 * status, the list filter as SQL (both SQL stores run the same text, only the placeholder differs) and the
 * same test in memory, the checks on new codes made before any store writes one, and the refusals in
 * words. Newest first by id; paging goes on from `beforeId`. Every query names its kind: a redemption
 * code never lets anyone sign up, an invitation never credits money.
 */
import { assertAmount } from './amounts.ts';
import { newestFirstSql, type SqlParam } from './newestFirst.ts';
import { StoreError } from './types.ts';
import type { CodeFilter, CodeKind, CodeKinds, CodeStatus, CodeTarget, SingleUseCode } from './codeTypes.ts';

export { CODE_STATUSES } from '../../contract/index.ts';

/** How messages name a code of each kind. */
export const CODE_WORDS: Readonly<Record<CodeKind, string>> = { redemption: 'redemption code', invitation: 'invitation code' };

/** Used wins over disabled (a used code stays used), disabled over expired. */
export function codeStatus(code: SingleUseCode, now: number): CodeStatus {
  if (code.redeemedAt !== null) return 'used';
  if (code.disabled) return 'disabled';
  if (code.expiresAt !== null && code.expiresAt <= now) return 'expired';
  return 'unused';
}

/** Usable at `now`, as SQL (the same rule as codeStatus === 'unused'); `now` is the placeholder of the time. */
export function redeemableSql(now: string): string {
  return `redeemed_at IS NULL AND NOT disabled AND (expires_at IS NULL OR expires_at > ${now})`;
}

/** The list query of `kind` for `filter`, with `placeholder(n)` for the n-th parameter (1-based). */
export function listCodesSql(kind: CodeKind, filter: CodeFilter, placeholder: (n: number) => string): { sql: string; params: SqlParam[] } {
  return newestFirstSql('SELECT * FROM redemption_codes', 'id', (p) => {
    const where: string[] = [`kind = ${p(kind)}`];
    if (filter.batch !== undefined) where.push(`batch = ${p(filter.batch)}`);
    if (filter.status === 'used') where.push('redeemed_at IS NOT NULL');
    else if (filter.status === 'disabled') where.push('redeemed_at IS NULL AND disabled');
    else if (filter.status === 'expired') where.push(`redeemed_at IS NULL AND NOT disabled AND expires_at IS NOT NULL AND expires_at <= ${p(filter.now)}`);
    else if (filter.status === 'unused') where.push(redeemableSql(p(filter.now)));
    if (filter.beforeId !== undefined) where.push(`id < ${p(filter.beforeId)}`);
    return where;
  }, filter.limit, placeholder);
}

/** The same test as the SQL, for the memory store (which keeps each kind apart). */
export function matchesCodes(filter: CodeFilter, code: SingleUseCode): boolean {
  return (filter.batch === undefined || code.batch === filter.batch)
    && (filter.status === undefined || codeStatus(code, filter.now) === filter.status)
    && (filter.beforeId === undefined || code.id < filter.beforeId);
}

const HASH = /^[0-9a-f]{64}$/;

/** Throws unless there is at least one new code, each with a SHA-256 hex hash and (a redemption code) a value an account may hold. */
export function assertNewCodes<K extends CodeKind>(kind: K, codes: readonly CodeKinds[K]['made'][]): void {
  if (codes.length === 0) throw new StoreError('invalid', 'no code to make');
  for (const code of codes) {
    if (!HASH.test(code.hash)) throw new StoreError('invalid', `a ${CODE_WORDS[kind]} is stored as the SHA-256 of the code (64 hex digits), never as itself`);
    if (kind === 'redemption') assertAmount((code as CodeKinds['redemption']['made']).value);
  }
}

/** The value column of a new code: a redemption code's value; an invitation has none. */
export function valueOf(code: CodeKinds[CodeKind]['made']): number | null {
  return 'value' in code ? code.value : null;
}

/** A disable target that matched no code of its kind: not found, named. */
export function noSuchCodes(kind: CodeKind, target: CodeTarget): StoreError {
  return new StoreError('not_found', 'id' in target ? `no ${CODE_WORDS[kind]} with id ${target.id}` : `no ${CODE_WORDS[kind]} in batch "${target.batch}"`);
}

/** A new code whose hash another code (of any kind) has. */
export function codeTaken(kind: CodeKind): StoreError {
  return new StoreError('conflict', `a ${CODE_WORDS[kind]} with this hash exists already`);
}
