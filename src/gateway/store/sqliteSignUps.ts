/**
 * Invitation codes and self sign-up on the SQLite store, apart from sqlite.ts so that file keeps to one
 * idea. Invitations are codes of the kind "invitation" in the codes' table (sqliteCodes.ts does the
 * making, listing and disabling). A sign-up is one IMMEDIATE transaction (no other connection or
 * process writes between its steps): the invitation is found usable first, so a wrong one is refused
 * before a name is ever compared (nobody without an invitation learns which names exist); then the
 * account (with its starting balance) and the user are made and the invitation marked with them, with
 * the audit row. A taken name rolls it all back: the invitation stays unused.
 */
import type { DatabaseSync } from 'node:sqlite';
import { assertAmount } from './amounts.ts';
import type { AuditedTransaction, SqliteCodes } from './sqliteCodes.ts';
import { toAccount, toUser, type Row } from './sqlRows.ts';
import { signUpNameTaken } from './signUpTypes.ts';
import { SQLITE_USERS_NAMED } from './userNames.ts';
import type { AuditEntry, CodeFilter, CodeTarget, InvitationRecord, NewInvitation, NewSignUp, SignedUp, SignUpStore } from './types.ts';

/** Thrown inside the transaction to roll it back (its audit row with it) when the invitation cannot be used. */
class NoInvitation extends Error {}

export class SqliteSignUps implements SignUpStore {
  readonly #db: DatabaseSync;
  readonly #codes: SqliteCodes;
  readonly #tx: AuditedTransaction;
  readonly #changed: () => void;

  constructor(db: DatabaseSync, codes: SqliteCodes, tx: AuditedTransaction, changed: () => void) {
    this.#db = db;
    this.#codes = codes;
    this.#tx = tx;
    this.#changed = changed;
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
    const hash = request.invitationHash;
    let done: SignedUp;
    try {
      done = this.#tx(request.audit, () => {
        if (hash !== null && !this.#codes.usable('invitation', hash, now)) throw new NoInvitation();
        let account, user;
        if (this.#db.prepare(SQLITE_USERS_NAMED).get(request.name)) throw signUpNameTaken(request.name);
        try {
          account = toAccount(this.#db.prepare('INSERT INTO accounts (name, balance, created_at) VALUES (?, ?, ?) RETURNING *').get(request.name, request.balance, now) as Row);
          user = toUser(this.#db.prepare('INSERT INTO users (name, account_id, admin, password_hash, created_at) VALUES (?, ?, 0, ?, ?) RETURNING *')
            .get(request.name, account.id, request.passwordHash, now) as Row);
        } catch (error) {
          if (error instanceof Error && /UNIQUE constraint failed: (accounts|users)\.name/i.test(error.message)) throw signUpNameTaken(request.name);
          throw error;
        }
        // Found usable above, in this same transaction: the mark cannot miss (were it to, all is rolled back).
        const invitation = hash === null ? null : this.#codes.use('invitation', hash, { accountId: account.id, userId: user.id }, now);
        if (hash !== null && !invitation) throw new NoInvitation();
        return { user, account, invitation };
      });
    } catch (error) {
      if (error instanceof NoInvitation) return null;
      throw error;
    }
    this.#changed();
    return done;
  }
}
