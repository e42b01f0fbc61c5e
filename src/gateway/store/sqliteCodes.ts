/**
 * The single-use codes of the SQLite store (migrations 14 and 19: one table, a kind per code), apart from
 * sqlite.ts so that file keeps to one idea: made, listed and disabled the same way whatever their kind.
 * A use is one IMMEDIATE transaction (the write lock taken first, so no other process or connection can
 * use the code between the check and the mark): the code is marked only while it is usable, and what
 * the use does (a redemption's credit here, a sign-up's user in sqliteSignUps.ts) happens in the same
 * transaction; either both happen or neither. Making, listing and disabling codes are not changes of the
 * cached snapshot (it holds no codes); a redemption is (a balance moved), like a top-up. Making and
 * disabling codes are admin actions: their audit row, when given, is written in the same transaction.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { overCeiling } from './amounts.ts';
import { assertNewCodes, codeTaken, listCodesSql, noSuchCodes, redeemableSql, valueOf } from './codeQuery.ts';
import { toAccount, toCode, toInvitation, type Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { AuditEntry, CodeFilter, CodeKind, CodeKinds, CodeTarget, Redeemer, Redemption } from './types.ts';

/** `work` in one IMMEDIATE transaction, with `audit`'s row when given (the store's #audited). */
export type AuditedTransaction = <T>(audit: AuditEntry | undefined, work: () => T) => T;

/** A code row as its kind's record. */
export const CODE_ROWS: { readonly [K in CodeKind]: (row: Row) => CodeKinds[K]['record'] } = { redemption: toCode, invitation: toInvitation };

export class SqliteCodes {
  readonly #db: DatabaseSync;
  readonly #tx: AuditedTransaction;
  readonly #changed: () => void;

  constructor(db: DatabaseSync, tx: AuditedTransaction, changed: () => void) {
    this.#db = db;
    this.#tx = tx;
    this.#changed = changed;
  }

  create<K extends CodeKind>(kind: K, codes: readonly CodeKinds[K]['made'][], audit?: AuditEntry): CodeKinds[K]['record'][] {
    assertNewCodes(kind, codes);
    const now = Date.now();
    try {
      return this.#tx(audit, () => {
        const insert = this.#db.prepare('INSERT INTO redemption_codes (kind, code_hash, value, batch, created_at, created_by, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *');
        return codes.map((c) => CODE_ROWS[kind](insert.get(kind, c.hash, valueOf(c), c.batch, now, c.createdBy, c.expiresAt) as Row));
      });
    } catch (error) {
      if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message)) throw codeTaken(kind);
      if (error instanceof Error && /FOREIGN KEY constraint failed/i.test(error.message)) throw new StoreError('not_found', 'no such user');
      throw error;
    }
  }

  list<K extends CodeKind>(kind: K, filter: CodeFilter): CodeKinds[K]['record'][] {
    const { sql, params } = listCodesSql(kind, filter, () => '?');
    return (this.#db.prepare(sql).all(...params) as Row[]).map(CODE_ROWS[kind]);
  }

  disable(kind: CodeKind, target: CodeTarget, audit?: AuditEntry): number {
    const [column, value]: [string, SQLInputValue] = 'id' in target ? ['id', target.id] : ['batch', target.batch];
    return this.#tx(audit, () => {
      const found = this.#db.prepare(`SELECT count(*) AS n FROM redemption_codes WHERE kind = ? AND ${column} = ?`).get(kind, value) as Row;
      if (Number(found.n) === 0) throw noSuchCodes(kind, target);
      return Number(this.#db.prepare(`UPDATE redemption_codes SET disabled = 1 WHERE kind = ? AND ${column} = ? AND redeemed_at IS NULL AND NOT disabled`).run(kind, value).changes);
    });
  }

  /** Inside the caller's transaction: the code of `kind` with this hash if it is usable at `now`; null when unknown, used, disabled, expired, or of the other kind. */
  usable<K extends CodeKind>(kind: K, hash: string, now: number): CodeKinds[K]['record'] | null {
    const row = this.#db.prepare(`SELECT * FROM redemption_codes WHERE kind = ? AND code_hash = ? AND ${redeemableSql('?')}`).get(kind, hash, now) as Row | undefined;
    return row ? CODE_ROWS[kind](row) : null;
  }

  /** Inside the caller's transaction: marks the code of `kind` with this hash used by `by` at `now`, only while it is usable; null otherwise. */
  use<K extends CodeKind>(kind: K, hash: string, by: Redeemer, now: number): CodeKinds[K]['record'] | null {
    const marked = this.#db.prepare(`UPDATE redemption_codes SET redeemed_at = ?, redeemed_account_id = ?, redeemed_user_id = ?
      WHERE kind = ? AND code_hash = ? AND ${redeemableSql('?')} RETURNING *`).get(now, by.accountId, by.userId, kind, hash, now) as Row | undefined;
    return marked ? CODE_ROWS[kind](marked) : null;
  }

  redeem(hash: string, by: Redeemer, now: number): Redemption | null {
    const redemption = this.#tx(undefined, () => {
      const code = this.use('redemption', hash, by, now);
      if (!code) return null;
      const credited = this.#db.prepare('UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance + ? <= ? RETURNING *')
        .get(code.value, by.accountId, code.value, MAX_BALANCE_MICRO) as Row | undefined;
      if (!credited) {
        // Thrown inside the transaction: the code's mark is rolled back with it.
        const account = this.#db.prepare('SELECT * FROM accounts WHERE id = ?').get(by.accountId) as Row | undefined;
        throw account ? overCeiling(toAccount(account), code.value) : new StoreError('not_found', `no account with id ${by.accountId}`);
      }
      return { code, account: toAccount(credited) };
    });
    if (redemption) this.#changed();
    return redemption;
  }
}
