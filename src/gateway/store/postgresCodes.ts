/**
 * The redemption codes of the PostgreSQL store (migration 6), apart from postgres.ts so that file keeps
 * to one idea. A redemption is one transaction: a conditional UPDATE ... WHERE redeemed_at IS NULL (and
 * not disabled, not expired) RETURNING marks the code, then the balance is credited, exactly as a top-up
 * is (balance + value; available money, balance − leased, grows with it), with the change bumped and
 * NOTIFYed so every instance reloads it within a second. Under READ COMMITTED two transactions marking
 * the same code queue on its row lock; the second re-reads the row the first committed, finds it used,
 * and marks nothing: a code credits once, whatever the instances and connections.
 * Making, listing and disabling codes do not change the instances' snapshot (it holds no codes): nothing
 * is bumped for them; they are admin actions, so their audit row, when given, commits with them.
 */
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { overCeiling } from './amounts.ts';
import { auditRow } from './audit.ts';
import { assertNewCodes, listCodesSql, noSuchCodes, redeemableSql } from './codeQuery.ts';
import { appendAudit } from './postgresAudit.ts';
import type { Query, Transaction } from './postgresQuery.ts';
import { toAccount, toCode } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { AuditEntry, CodeFilter, CodeTarget, NewRedemptionCode, Redeemer, Redemption, RedemptionCodeRecord } from './types.ts';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';

export interface CodeChanges {
  /** Bumps the change version and NOTIFYs, in the caller's transaction. */
  notify(query: Query): Promise<void>;
  /** This process changed the data (after the commit). */
  markChanged(): void;
}

export class PostgresCodes {
  readonly #tx: Transaction;
  readonly #query: Query;
  readonly #changes: CodeChanges;

  constructor(tx: Transaction, query: Query, changes: CodeChanges) {
    this.#tx = tx;
    this.#query = query;
    this.#changes = changes;
  }

  async create(codes: readonly NewRedemptionCode[], audit?: AuditEntry): Promise<RedemptionCodeRecord[]> {
    assertNewCodes(codes);
    const row = audit ? auditRow(audit) : null; // checked (no secret) before anything is written
    const now = Date.now();
    try {
      return await this.#tx(async (query) => {
        // One statement for the batch: the rows in the order given.
        const { rows } = await query(
          `INSERT INTO redemption_codes (code_hash, value, batch, created_at, created_by, expires_at)
             SELECT h, v, b, $6, c, e FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[]) WITH ORDINALITY AS n(h, v, b, c, e, i)
             ORDER BY i RETURNING *`,
          [codes.map((c) => c.hash), codes.map((c) => c.value), codes.map((c) => c.batch), codes.map((c) => c.createdBy), codes.map((c) => c.expiresAt), now]);
        if (row) await appendAudit(query, row);
        return rows.map(toCode).sort((a, b) => a.id - b.id);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === UNIQUE_VIOLATION) throw new StoreError('conflict', 'a redemption code with this hash exists already');
      if (code === FOREIGN_KEY_VIOLATION) throw new StoreError('not_found', 'no such user');
      if (code === CHECK_VIOLATION) throw new StoreError('invalid', `a redemption code's value must be whole micro-USD from 1 to ${MAX_BALANCE_MICRO}; nothing was made`);
      throw error;
    }
  }

  async list(filter: CodeFilter): Promise<RedemptionCodeRecord[]> {
    const { sql, params } = listCodesSql(filter, (n) => `$${n}`);
    return (await this.#query(sql, params)).rows.map(toCode);
  }

  async disable(target: CodeTarget, audit?: AuditEntry): Promise<number> {
    const [column, value] = 'id' in target ? ['id', target.id] : ['batch', target.batch];
    const row = audit ? auditRow(audit) : null;
    return this.#tx(async (query) => {
      const { rows } = await query(`SELECT count(*) AS n FROM redemption_codes WHERE ${column} = $1`, [value]);
      if (Number(rows[0]!.n) === 0) throw noSuchCodes(target);
      const disabled = (await query(`UPDATE redemption_codes SET disabled = TRUE WHERE ${column} = $1 AND redeemed_at IS NULL AND NOT disabled`, [value])).rowCount ?? 0;
      if (row) await appendAudit(query, row);
      return disabled;
    });
  }

  async redeem(hash: string, by: Redeemer, now: number): Promise<Redemption | null> {
    const redemption = await this.#tx(async (query) => {
      const marked = (await query(`UPDATE redemption_codes SET redeemed_at = $1, redeemed_account_id = $2, redeemed_user_id = $3
        WHERE code_hash = $4 AND ${redeemableSql('$1')} RETURNING *`, [now, by.accountId, by.userId, hash])).rows[0];
      if (!marked) return null;
      const code = toCode(marked);
      const credited = (await query('UPDATE accounts SET balance = balance + $1 WHERE id = $2 AND balance + $1 <= $3 RETURNING *', [code.value, by.accountId, MAX_BALANCE_MICRO])).rows[0];
      if (!credited) {
        // Thrown inside the transaction: the code's mark is rolled back with it.
        const account = (await query('SELECT * FROM accounts WHERE id = $1', [by.accountId])).rows[0];
        throw account ? overCeiling(toAccount(account), code.value) : new StoreError('not_found', `no account with id ${by.accountId}`);
      }
      await this.#changes.notify(query);
      return { code, account: toAccount(credited) };
    });
    if (redemption) this.#changes.markChanged();
    return redemption;
  }
}
