/**
 * Invitation codes and self sign-up on the memory store: the same behaviour as the SQL stores'
 * (sqliteSignUps.ts). A sign-up is one synchronous step: the invitation checked first (a wrong one is
 * refused before any name is compared), then the account and the user made (a taken name refuses it all,
 * the invitation unused), the invitation marked, and the audit row written.
 */
import { assertAmount } from './amounts.ts';
import type { MemoryCodes } from './memoryCodes.ts';
import type { MemoryHooks } from './memoryAdminTokens.ts';
import type { AccountRecord, AuditEntry, CodeFilter, CodeTarget, InvitationRecord, NewInvitation, NewSignUp, SignedUp, SignUpStore, UserRecord } from './types.ts';

/** The memory store's own step: an account of `name` with `balance` and its user, or a conflict when the name is taken (checked before either is made). */
export type OpenOwnAccount = (request: NewSignUp, now: number) => { account: AccountRecord; user: UserRecord };

export class MemorySignUps implements SignUpStore {
  readonly #codes: MemoryCodes;
  readonly #hooks: Pick<MemoryHooks, 'audited'>;
  readonly #open: OpenOwnAccount;

  constructor(codes: MemoryCodes, hooks: Pick<MemoryHooks, 'audited'>, open: OpenOwnAccount) {
    this.#codes = codes;
    this.#hooks = hooks;
    this.#open = open;
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
    if (hash !== null && !this.#codes.usable('invitation', hash, now)) return null;
    return this.#hooks.audited(request.audit, () => {
      const { account, user } = this.#open(request, now);
      const invitation = hash === null ? null : this.#codes.mark('invitation', hash, { accountId: account.id, userId: user.id }, now);
      return { user, account, invitation };
    });
  }
}
