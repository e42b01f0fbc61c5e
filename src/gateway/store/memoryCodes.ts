/**
 * The single-use codes of the memory store (redemption and invitation codes), the same behaviour as the
 * SQL stores' one table (sqliteCodes.ts): each kind listed and disabled apart, a hash unique over both.
 * Every step is synchronous, so a check and its mark can never be separated by another request.
 */
import { assertNewCodes, codeStatus, codeTaken, matchesCodes, noSuchCodes, valueOf } from './codeQuery.ts';
import type { MemoryHooks } from './memoryAdminTokens.ts';
import { newestFirst } from './newestFirst.ts';
import type { AuditEntry, CodeFilter, CodeKind, CodeKinds, CodeTarget, Redeemer, SingleUseCode } from './types.ts';

export class MemoryCodes {
  readonly #codes: { [K in CodeKind]: CodeKinds[K]['record'][] } = { redemption: [], invitation: [] };
  readonly #hooks: Pick<MemoryHooks, 'id' | 'audited'>;

  constructor(hooks: Pick<MemoryHooks, 'id' | 'audited'>) {
    this.#hooks = hooks;
  }

  create<K extends CodeKind>(kind: K, codes: readonly CodeKinds[K]['made'][], audit?: AuditEntry): CodeKinds[K]['record'][] {
    assertNewCodes(kind, codes);
    return this.#hooks.audited(audit, () => {
      const hashes = new Set([...this.#codes.redemption, ...this.#codes.invitation].map((c) => c.hash));
      for (const code of codes) {
        if (hashes.has(code.hash)) throw codeTaken(kind);
        hashes.add(code.hash);
      }
      const now = Date.now();
      const made = codes.map((code) => {
        const value = valueOf(code);
        return {
          hash: code.hash, batch: code.batch, expiresAt: code.expiresAt, createdBy: code.createdBy, ...(value === null ? {} : { value }),
          id: this.#hooks.id(), createdAt: now, disabled: false, redeemedAt: null, redeemedAccountId: null, redeemedUserId: null,
        } as CodeKinds[K]['record'];
      });
      this.#codes[kind].push(...made);
      return made;
    });
  }

  list<K extends CodeKind>(kind: K, filter: CodeFilter): CodeKinds[K]['record'][] {
    return newestFirst(this.#codes[kind], filter.limit, (code) => matchesCodes(filter, code));
  }

  disable(kind: CodeKind, target: CodeTarget, audit?: AuditEntry): number {
    return this.#hooks.audited(audit, () => {
      const codes: SingleUseCode[] = this.#codes[kind];
      const matching = codes.filter((c) => ('id' in target ? c.id === target.id : c.batch === target.batch));
      if (matching.length === 0) throw noSuchCodes(kind, target);
      let changed = 0;
      for (const [i, c] of codes.entries()) {
        if (!matching.includes(c) || c.redeemedAt !== null || c.disabled) continue;
        codes[i] = { ...c, disabled: true };
        changed++;
      }
      return changed;
    });
  }

  /** The code of `kind` with this hash if it is usable at `now`; null when unknown, used, disabled, expired, or of the other kind. */
  usable<K extends CodeKind>(kind: K, hash: string, now: number): CodeKinds[K]['record'] | null {
    const code = this.#codes[kind].find((c) => c.hash === hash);
    return code && codeStatus(code, now) === 'unused' ? code : null;
  }

  /** Marks the usable code of `kind` with this hash used by `by` at `now` (call usable first: in the same synchronous step). */
  mark<K extends CodeKind>(kind: K, hash: string, by: Redeemer, now: number): CodeKinds[K]['record'] {
    const codes: CodeKinds[K]['record'][] = this.#codes[kind];
    const index = codes.findIndex((c) => c.hash === hash);
    const used = { ...codes[index]!, redeemedAt: now, redeemedAccountId: by.accountId, redeemedUserId: by.userId };
    codes[index] = used;
    return used;
  }
}
