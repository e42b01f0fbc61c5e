/**
 * Making a console user, the one way the CLI (`user create`), the first-admin setup page and the
 * admins' console do: the password checked and hashed, the account found or made. Without an account
 * name the user gets an account of their own name, made empty. With an actor (every caller but tests' set-up), the audit log records it.
 */
import { CLI_ACTOR, isCliActorName } from '../../contract/index.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { auditEntry, type Acting } from './userAdmin.ts';
import { StoreError, type Store, type UserRecord } from '../store/types.ts';
import { userNameTaken } from '../store/userNames.ts';

export interface NewUserRequest {
  readonly name: string;
  readonly password: string;
  readonly admin: boolean;
  /** An existing account to join; absent: an account of the user's name. */
  readonly account?: string;
  /** With no `account`: put the user on an existing account of their name rather than refuse. */
  readonly joinOwnNameAccount?: boolean;
  /** Who makes the user, for the audit log: an admin, CLI_ACTOR, or the first admin themself (the setup link); absent: no row (tests' set-up). */
  readonly acting?: Acting;
  /** The password hashed already (hashPassword), when the caller had to hash it before anything else. */
  readonly passwordHash?: string;
}

/** Creates the user; throws StoreError ('invalid', 'conflict', 'not_found') with words for people. */
export async function createUser(store: Store, request: NewUserRequest): Promise<UserRecord> {
  const problem = passwordProblem(request.password);
  if (problem) throw new StoreError('invalid', problem);
  // The audit log names the command line "cli": no person may be mistaken for it.
  if (isCliActorName(request.name)) throw new StoreError('invalid', `"${CLI_ACTOR}" is the audit log's name for the command line: choose another user name`);
  // The user name first: advice to put the user on an existing account would only lead to this refusal.
  const taken = await store.findUser({ name: request.name });
  if (taken) throw userNameTaken(request.name, taken.name);
  const accountName = request.account ?? request.name;
  const existing = await store.getAccount(accountName);
  if (request.account !== undefined && !existing) throw new StoreError('not_found', `no account named "${accountName}"`);
  if (request.account === undefined && existing && !request.joinOwnNameAccount) {
    throw new StoreError('conflict', `an account named "${request.name}" exists already: give --account ${request.name} to put the user on it`);
  }
  const passwordHash = request.passwordHash ?? (await hashPassword(request.password));
  const account = existing ?? (await store.createAccount(accountName, 0));
  const audit = request.acting && auditEntry(request.acting, 'user.create', request.name, { account: accountName, admin: request.admin, new_account: !existing });
  return store.createUser({ name: request.name, accountId: account.id, admin: request.admin, passwordHash }, audit);
}
