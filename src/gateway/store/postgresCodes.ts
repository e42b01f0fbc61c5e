/**
 * The single-use codes of the PostgreSQL store (migrations 6 and 11: one table, a kind per code), apart
 * from postgres.ts so that file keeps to one idea: made, listed and disabled the same way whatever their
 * kind. A redemption is one transaction: a conditional UPDATE ... WHERE redeemed_at IS NULL (and not
 * disabled, not expired) RETURNING marks the code, then the balance is credited, exactly as a top-up is
 * (balance + value; available money, balance − leased, grows with it), with the change bumped and
 * NOTIFYed so every instance reloads it within a second. Under READ COMMITTED two transactions marking
 * the same code queue on its row lock; the second re-reads the row the first committed, finds it used,
 * and marks nothing: a code is used once, whatever the instances and connections (a sign-up takes the
 * same lock with SELECT ... FOR UPDATE, postgresSignUps.ts).
 * Making, listing and disabling codes do not change the instances' snapshot (it holds no codes): nothing
 * is bumped for them; they are admin actions, so their audit row, when given, commits with them.
 */
import { MAX_BALANCE_MICRO } from '../../contract/index.ts';
import { overCeiling } from './amounts.ts';
import { auditRow } from './audit.ts';
import { assertNewCodes, codeTaken, listCodesSql, noSuchCodes, redeemableSql, valueOf } from './codeQuery.ts';
import { appendAudit } from './postgresAudit.ts';
import { CHECK_VIOLATION, FOREIGN_KEY_VIOLATION, type Query, type Transaction, UNIQUE_VIOLATION } from './postgresQuery.ts';
import { toAccount, toCode, toInvitation, type Row } from './sqlRows.ts';
import { StoreError } from './types.ts';
import type { AuditEntry, CodeFilter, CodeKind, CodeKinds, CodeTarget, Redeemer, Redemption } from './types.ts';


/** A code row as its kind's record. */
const CODE_ROWS: { readonly [K in CodeKind]: (row: Row) => CodeKinds[K]['record'] } = { redemption: toCode, invitation: toInvitation };

/** How a write that other instances must see is told (a balance credited, a setting changed, a user made). */
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

  async create<K extends CodeKind>(kind: K, codes: readonly CodeKinds[K]['made'][], audit?: AuditEntry): Promise<CodeKinds[K]['record'][]> {
    assertNewCodes(kind, codes);
    const row = audit ? auditRow(audit) : null; // checked (no secret) before anything is written
    const now = Date.now();
    try {
      return await this.#tx(async (query) => {
        // One statement for the batch: the rows in the order given.
        const { rows } = await query(
          `INSERT INTO redemption_codes (kind, code_hash, value, batch, created_at, created_by, expires_at)
             SELECT $7, h, v, b, $6, c, e FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[]) WITH ORDINALITY AS n(h, v, b, c, e, i)
             ORDER BY i RETURNING *`,
          [codes.map((c) => c.hash), codes.map(valueOf), codes.map((c) => c.batch), codes.map((c) => c.createdBy), codes.map((c) => c.expiresAt), now, kind]);
        if (row) await appendAudit(query, row);
        return rows.map(CODE_ROWS[kind]).sort((a, b) => a.id - b.id);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === UNIQUE_VIOLATION) throw codeTaken(kind);
      if (code === FOREIGN_KEY_VIOLATION) throw new StoreError('not_found', 'no such user');
      if (code === CHECK_VIOLATION) throw new StoreError('invalid', `a redemption code's value must be whole micro-USD from 1 to ${MAX_BALANCE_MICRO}; nothing was made`);
      throw error;
    }
  }

  async list<K extends CodeKind>(kind: K, filter: CodeFilter): Promise<CodeKinds[K]['record'][]> {
    const { sql, params } = listCodesSql(kind, filter, (n) => `$${n}`);
    return (await this.#query(sql, params)).rows.map(CODE_ROWS[kind]);
  }

  async disable(kind: CodeKind, target: CodeTarget, audit?: AuditEntry): Promise<number> {
    const [column, value] = 'id' in target ? ['id', target.id] : ['batch', target.batch];
    const row = audit ? auditRow(audit) : null;
    return this.#tx(async (query) => {
      const { rows } = await query(`SELECT count(*) AS n FROM redemption_codes WHERE kind = $1 AND ${column} = $2`, [kind, value]);
      if (Number(rows[0]!.n) === 0) throw noSuchCodes(kind, target);
      const disabled = (await query(`UPDATE redemption_codes SET disabled = TRUE WHERE kind = $1 AND ${column} = $2 AND redeemed_at IS NULL AND NOT disabled`, [kind, value])).rowCount ?? 0;
      if (row) await appendAudit(query, row);
      return disabled;
    });
  }

  /**
   * In the caller's transaction: marks the code of `kind` with this hash used by `by` at `now`, only while
   * it is usable; null otherwise (unknown, used, disabled, expired, or of the other kind).
   */
  async use<K extends CodeKind>(query: Query, kind: K, hash: string, by: Redeemer, now: number): Promise<CodeKinds[K]['record'] | null> {
    const marked = (await query(`UPDATE redemption_codes SET redeemed_at = $1, redeemed_account_id = $2, redeemed_user_id = $3
      WHERE kind = $4 AND code_hash = $5 AND ${redeemableSql('$1')} RETURNING *`, [now, by.accountId, by.userId, kind, hash])).rows[0];
    return marked ? CODE_ROWS[kind](marked) : null;
  }

  /**
   * In the caller's transaction: whether the code of `kind` with this hash is usable at `now`, its row then
   * locked until the commit (a second transaction asking waits for it, then finds it used).
   */
  async lockUsable(query: Query, kind: CodeKind, hash: string, now: number): Promise<boolean> {
    const { rows } = await query(`SELECT id FROM redemption_codes WHERE kind = $1 AND code_hash = $2 AND ${redeemableSql('$3')} FOR UPDATE`, [kind, hash, now]);
    return rows.length > 0;
  }

  async redeem(hash: string, by: Redeemer, now: number): Promise<Redemption | null> {
    const redemption = await this.#tx(async (query) => {
      const code = await this.use(query, 'redemption', hash, by, now);
      if (!code) return null;
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
