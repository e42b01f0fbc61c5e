/**
 * Redemption codes, the parts every store shares: a code's status, the list filter as SQL (both SQL
 * stores run the same text, only the placeholder differs) and the same test in memory, and the checks
 * on new codes made before any store writes one. Newest first by id; paging goes on from `beforeId`.
 */
import { assertAmount } from './amounts.ts';
import { newestFirstSql, type SqlParam } from './newestFirst.ts';
import { StoreError } from './types.ts';
import type { CodeFilter, CodeStatus, CodeTarget, NewRedemptionCode, RedemptionCodeRecord } from './types.ts';

export { CODE_STATUSES } from '../../contract/index.ts';

/** Used wins over disabled (a used code stays used), disabled over expired. */
export function codeStatus(code: RedemptionCodeRecord, now: number): CodeStatus {
  if (code.redeemedAt !== null) return 'used';
  if (code.disabled) return 'disabled';
  if (code.expiresAt !== null && code.expiresAt <= now) return 'expired';
  return 'unused';
}

/** Redeemable at `now`, as SQL (the same rule as codeStatus === 'unused'); `now` is the placeholder of the time. */
export function redeemableSql(now: string): string {
  return `redeemed_at IS NULL AND NOT disabled AND (expires_at IS NULL OR expires_at > ${now})`;
}

/** The list query for `filter`, with `placeholder(n)` for the n-th parameter (1-based). */
export function listCodesSql(filter: CodeFilter, placeholder: (n: number) => string): { sql: string; params: SqlParam[] } {
  return newestFirstSql('SELECT * FROM redemption_codes', 'id', (p) => {
    const where: string[] = [];
    if (filter.batch !== undefined) where.push(`batch = ${p(filter.batch)}`);
    if (filter.status === 'used') where.push('redeemed_at IS NOT NULL');
    else if (filter.status === 'disabled') where.push('redeemed_at IS NULL AND disabled');
    else if (filter.status === 'expired') where.push(`redeemed_at IS NULL AND NOT disabled AND expires_at IS NOT NULL AND expires_at <= ${p(filter.now)}`);
    else if (filter.status === 'unused') where.push(redeemableSql(p(filter.now)));
    if (filter.beforeId !== undefined) where.push(`id < ${p(filter.beforeId)}`);
    return where;
  }, filter.limit, placeholder);
}

/** The same test as the SQL, for the memory store. */
export function matchesCodes(filter: CodeFilter, code: RedemptionCodeRecord): boolean {
  return (filter.batch === undefined || code.batch === filter.batch)
    && (filter.status === undefined || codeStatus(code, filter.now) === filter.status)
    && (filter.beforeId === undefined || code.id < filter.beforeId);
}

const HASH = /^[0-9a-f]{64}$/;

/** Throws unless every new code has a SHA-256 hex hash, a value an account may hold, and there is at least one. */
export function assertNewCodes(codes: readonly NewRedemptionCode[]): void {
  if (codes.length === 0) throw new StoreError('invalid', 'no code to make');
  for (const code of codes) {
    if (!HASH.test(code.hash)) throw new StoreError('invalid', 'a redemption code is stored as the SHA-256 of the code (64 hex digits), never as itself');
    assertAmount(code.value);
  }
}

/** A disable target that matched no code: not found, named. */
export function noSuchCodes(target: CodeTarget): StoreError {
  return new StoreError('not_found', 'id' in target ? `no redemption code with id ${target.id}` : `no redemption code in batch "${target.batch}"`);
}
