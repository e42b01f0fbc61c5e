/**
 * The redemption codes of the SQLite store (migration 14), apart from sqlite.ts so that file keeps to
 * one idea. A redemption is one IMMEDIATE transaction (the write lock taken first, so no other process
 * or connection can redeem between the check and the mark): the code is marked used only while it is
 * redeemable, and the account is credited in the same transaction; either both happen or neither.
 * Making, listing and disabling codes are not changes of the cached snapshot (it holds no codes); a
 * redemption is (a balance moved), like a top-up. Making and disabling codes are admin actions: their
 * audit row, when given, is written in the same transaction.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { overCeiling } from './amounts.ts';
import { assertNewCodes, listCodesSql, noSuchCodes, redeemableSql } from './codeQuery.ts';
import { toAccount, toCode, type Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { AuditEntry, CodeFilter, CodeTarget, NewRedemptionCode, Redeemer, Redemption, RedemptionCodeRecord } from './types.ts';

/** `work` in one IMMEDIATE transaction, with `audit`'s row when given (the store's #audited). */
type AuditedTransaction = <T>(audit: AuditEntry | undefined, work: () => T) => T;

export class SqliteCodes {
  readonly #db: DatabaseSync;
  readonly #tx: AuditedTransaction;
  readonly #changed: () => void;

  constructor(db: DatabaseSync, tx: AuditedTransaction, changed: () => void) {
    this.#db = db;
    this.#tx = tx;
    this.#changed = changed;
  }

  create(codes: readonly NewRedemptionCode[], audit?: AuditEntry): RedemptionCodeRecord[] {
    assertNewCodes(codes);
    const now = Date.now();
    try {
      return this.#tx(audit, () => {
        const insert = this.#db.prepare('INSERT INTO redemption_codes (code_hash, value, batch, created_at, created_by, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *');
        return codes.map((c) => toCode(insert.get(c.hash, c.value, c.batch, now, c.createdBy, c.expiresAt) as Row));
      });
    } catch (error) {
      if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message)) throw new StoreError('conflict', 'a redemption code with this hash exists already');
      if (error instanceof Error && /FOREIGN KEY constraint failed/i.test(error.message)) throw new StoreError('not_found', 'no such user');
      throw error;
    }
  }

  list(filter: CodeFilter): RedemptionCodeRecord[] {
    const { sql, params } = listCodesSql(filter, () => '?');
    return (this.#db.prepare(sql).all(...params) as Row[]).map(toCode);
  }

  disable(target: CodeTarget, audit?: AuditEntry): number {
    const [column, value]: [string, SQLInputValue] = 'id' in target ? ['id', target.id] : ['batch', target.batch];
    return this.#tx(audit, () => {
      const found = this.#db.prepare(`SELECT count(*) AS n FROM redemption_codes WHERE ${column} = ?`).get(value) as Row;
      if (Number(found.n) === 0) throw noSuchCodes(target);
      return Number(this.#db.prepare(`UPDATE redemption_codes SET disabled = 1 WHERE ${column} = ? AND redeemed_at IS NULL AND NOT disabled`).run(value).changes);
    });
  }

  redeem(hash: string, by: Redeemer, now: number): Redemption | null {
    const redemption = this.#tx(undefined, () => {
      const marked = this.#db.prepare(`UPDATE redemption_codes SET redeemed_at = ?, redeemed_account_id = ?, redeemed_user_id = ?
        WHERE code_hash = ? AND ${redeemableSql('?')} RETURNING *`).get(now, by.accountId, by.userId, hash, now) as Row | undefined;
      if (!marked) return null;
      const code = toCode(marked);
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
