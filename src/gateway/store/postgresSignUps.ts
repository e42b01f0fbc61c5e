/**
 * Invitation codes and self sign-up on the PostgreSQL store, apart from postgres.ts so that file keeps to
 * one idea. Invitations are codes of the kind "invitation" (postgresCodes.ts makes, lists and disables
 * them). A sign-up is one transaction: the invitation's row is found usable and locked first (SELECT ...
 * FOR UPDATE: a second sign-up with the same code, on any instance, waits for the first to commit and
 * then finds it used), so a wrong code is refused before a name is ever compared; then the account (with
 * its starting balance) and the user are made, the invitation marked with them, the audit row written,
 * and the change bumped and NOTIFYed (other instances see the new account's balance within a second).
 * A taken name (a UNIQUE violation) rolls it all back: the invitation stays unused.
 */
import { auditRow } from './audit.ts';
import { assertAmount } from './amounts.ts';
import { appendAudit } from './postgresAudit.ts';
import type { CodeChanges, PostgresCodes } from './postgresCodes.ts';
import { sqlState, type Transaction, UNIQUE_VIOLATION } from './postgresQuery.ts';
import { signUpNameTaken } from './signUpTypes.ts';
import { POSTGRES_USERS_NAMED, USER_NAMES_LOCK } from './userNames.ts';
import { toAccount, toUser } from './sqlRows.ts';
import type { AuditEntry, CodeFilter, CodeTarget, InvitationRecord, NewInvitation, NewSignUp, SignedUp, SignUpStore } from './types.ts';


/** The UNIQUE constraints a taken name breaks (any other is no name's, and is not worded as one). */
const NAME_CONSTRAINTS = new Set(['accounts_name_key', 'users_name_key']);

/** Thrown inside the transaction to roll it back (its audit row with it) when the invitation cannot be used. */
class NoInvitation extends Error {}

export class PostgresSignUps implements SignUpStore {
  readonly #tx: Transaction;
  readonly #codes: PostgresCodes;
  readonly #changes: CodeChanges;

  constructor(tx: Transaction, codes: PostgresCodes, changes: CodeChanges) {
    this.#tx = tx;
    this.#codes = codes;
    this.#changes = changes;
  }

  async createInvitations(codes: readonly NewInvitation[], audit?: AuditEntry): Promise<InvitationRecord[]> {
    return this.#codes.create('invitation', codes, audit);
  }

  async listInvitations(filter: CodeFilter): Promise<InvitationRecord[]> {
    return this.#codes.list('invitation', filter);
  }

  async disableInvitations(target: CodeTarget, audit?: AuditEntry): Promise<number> {
    return this.#codes.disable('invitation', target, audit);
  }

  async signUp(request: NewSignUp, now: number): Promise<SignedUp | null> {
    assertAmount(request.balance, 0);
    const row = request.audit ? auditRow(request.audit) : null;
    const hash = request.invitationHash;
    let done: SignedUp;
    try {
      done = await this.#tx(async (query) => {
        if (hash !== null && !(await this.#codes.lockUsable(query, 'invitation', hash, now))) throw new NoInvitation();
        await query('SELECT pg_advisory_xact_lock($1)', [USER_NAMES_LOCK]);
        if ((await query(POSTGRES_USERS_NAMED, [request.name])).rows.length > 0) throw signUpNameTaken(request.name);
        const account = toAccount((await query('INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, $3) RETURNING *', [request.name, request.balance, now])).rows[0]!);
        const user = toUser((await query('INSERT INTO users (name, account_id, admin, password_hash, created_at) VALUES ($1, $2, FALSE, $3, $4) RETURNING *',
          [request.name, account.id, request.passwordHash, now])).rows[0]!);
        // Locked usable above, in this transaction: the mark cannot miss (were it to, all is rolled back).
        const invitation = hash === null ? null : await this.#codes.use(query, 'invitation', hash, { accountId: account.id, userId: user.id }, now);
        if (hash !== null && !invitation) throw new NoInvitation();
        if (row) await appendAudit(query, row);
        await this.#changes.notify(query);
        return { user, account, invitation };
      });
    } catch (error) {
      if (error instanceof NoInvitation) return null;
      if (sqlState(error) === UNIQUE_VIOLATION && NAME_CONSTRAINTS.has(String((error as { constraint?: unknown }).constraint))) throw signUpNameTaken(request.name);
      throw error;
    }
    this.#changes.markChanged();
    return done;
  }
}
