/**
 * `model-gateway user ...`: the people who sign in to the console. A password is never an argument
 * (every user of the machine sees those in `ps`): it is asked for on a terminal, read from standard
 * input otherwise, and stored only as a slow salted hash.
 */
import { createInterface } from 'node:readline';
import { CLI_ACTOR } from '../contract/index.ts';
import { passwordProblem } from './accounts/passwords.ts';
import { createUser } from './accounts/users.ts';
import { resetPassword, setUserEnabled } from './accounts/userAdmin.ts';
import { identifier, UsageError } from './cliArgs.ts';
import { usersDisabledOf } from './store/keyUsers.ts';
import type { Store } from './store/types.ts';
import { userNameTaken } from './store/userNames.ts';

export interface UserIo {
  out: (line: string) => void;
  /** A password: asked on the terminal without echo, else the first line of standard input. */
  readSecret?: (prompt: string) => Promise<string>;
}

export interface UserFlags {
  readonly account: string | undefined;
  readonly admin: boolean | undefined;
}

export async function user(store: Store, sub: string | undefined, args: string[], flags: UserFlags, io: UserIo): Promise<number> {
  if (sub === 'list') {
    const accounts = new Map((await store.snapshot()).accounts.map((a) => [a.id, a.name]));
    for (const u of await store.listUsers()) {
      io.out(`${u.name}\t${u.admin ? 'admin' : 'user'}\t${u.status}\taccount=${accounts.get(u.accountId) ?? u.accountId}\tcreated=${new Date(u.createdAt).toISOString()}`);
    }
    return 0;
  }
  const typed = identifier(args[0], 'user NAME');
  // Users are found without case (store/userNames.ts): the commands below act on the name as it is spelled.
  const found = await store.findUser({ name: typed });
  const name = found?.name ?? typed;
  if (sub === 'create') {
    // The user first: an existing user also has an account of that name, and the advice to give --account
    // would only lead to this same refusal.
    if (found) throw new UsageError(userNameTaken(typed, found.name).message);
    if (flags.account === undefined && (await store.getAccount(name))) throw new UsageError(`an account named "${name}" exists already: give --account ${name} to put the user on it`);
    const password = await newPassword(io, `Password for ${name}: `);
    const made = await createUser(store, { name, password, admin: flags.admin === true, acting: { actor: CLI_ACTOR }, ...(flags.account !== undefined ? { account: flags.account } : {}) });
    io.out(`user "${name}" created${flags.admin ? ' (admin)' : ''} on account "${flags.account ?? made.name}"`);
    return 0;
  }
  if (sub === 'password') {
    await resetPassword(store, name, await newPassword(io, `New password for ${name}: `), { actor: CLI_ACTOR });
    io.out(`password of "${name}" changed`);
    return 0;
  }
  if (sub === 'disable' || sub === 'enable') {
    const user = found;
    const before = user ? await keysUsersStop(store, user.accountId) : new Set<number>();
    await setUserEnabled(store, name, sub === 'enable', { actor: CLI_ACTOR });
    const after = user ? await keysUsersStop(store, user.accountId) : new Set<number>();
    const changed = sub === 'disable' ? [...after].filter((id) => !before.has(id)).length : [...before].filter((id) => !after.has(id)).length;
    const keys = `${changed} API key${changed === 1 ? '' : 's'}`;
    io.out(sub === 'disable'
      ? `user "${name}" disabled: their sessions ended; ${keys} stopped working (refused with 403 key_disabled until the user is enabled again)`
      : `user "${name}" enabled: ${keys} work${changed === 1 ? 's' : ''} again`);
    return 0;
  }
  throw new UsageError(`unknown command: user ${sub ?? ''}`);
}

/**
 * The ids of the account's keys, enabled on their own, that users stop now: made by a disabled user, or on an
 * account whose users are all disabled (auth.ts userStop); told as how many a disable stopped or an enable freed.
 */
async function keysUsersStop(store: Store, accountId: number): Promise<Set<number>> {
  const accountStopped = usersDisabledOf((await store.listUsers()).filter((u) => u.accountId === accountId)) !== null;
  const keys = await store.listKeys(accountId);
  return new Set(keys.filter((k) => k.status === 'enabled' && (accountStopped || k.disabledCreator !== null)).map((k) => k.id));
}

async function newPassword(io: UserIo, prompt: string): Promise<string> {
  if (!io.readSecret) throw new UsageError('a password is read from the terminal or standard input, neither of which is available here');
  // As typed (only the line's end is not part of it): the console signs in with the password exactly as given.
  const password = await io.readSecret(prompt);
  if (password.trim() === '') throw new UsageError('a password is required');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  return password;
}

/** One line from a terminal, not echoed (for passwords). */
export function readHiddenLine(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    process.stdout.write(prompt);
    // Typed characters are not shown: the interface writes nothing back to the terminal.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}
