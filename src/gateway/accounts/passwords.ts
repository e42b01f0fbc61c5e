/**
 * Console passwords, stored only as slow salted hashes with their parameters (so they can be raised
 * later): argon2id where the runtime has it (Node 24), scrypt otherwise (the editor's older Node).
 * A wrong password and an unknown user take the same time to refuse (verifyAgainstNothing).
 * The hashing runs on libuv's thread pool, never on the event loop: one hash is ~50 ms of CPU, and on
 * the loop every request in flight (streams included) stood still for it. At most HASHES_AT_ONCE run
 * at once and HASHES_WAITING wait; beyond that a password is refused at once (503
 * password_checks_busy), so a flood of sign-ins cannot take the thread pool (which DNS lookups of
 * upstreams and file work share) nor queue memory without bound.
 */
import * as crypto from 'node:crypto';
import { promisify } from 'node:util';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../contract/index.ts';

const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32 } as const;
export const HASHES_AT_ONCE = 2;
export const HASHES_WAITING = 32;

type Argon2Parameters = { message: string; nonce: Buffer; parallelism: number; tagLength: number; memory: number; passes: number };
type Argon2 = (algorithm: 'argon2id', parameters: Argon2Parameters, callback: (error: Error | null, hash: Buffer) => void) => void;
const argon2Callback = (crypto as unknown as { argon2?: Argon2 }).argon2;
const argon2 = argon2Callback ? promisify(argon2Callback) : null;
const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** Too many password hashes running and waiting: the request is refused at once (503 password_checks_busy, app.ts). */
export class PasswordChecksBusy extends Error {
  constructor() {
    super('too many password checks at once');
    this.name = 'PasswordChecksBusy';
  }
}

let running = 0;
const waiting: Array<() => void> = [];

/** `work` when a hash slot is free (in arrival order), or refused at once when too many wait already. */
async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASHES_AT_ONCE) {
    if (waiting.length >= HASHES_WAITING) throw new PasswordChecksBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await work();
  } finally {
    // The slot passes to the next waiter as it is, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (password.length > MAX_PASSWORD_LENGTH) return `a password has at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  if (argon2) {
    const { memory, passes, parallelism, tagLength } = ARGON2;
    return bounded(async () => {
      const hash = await argon2('argon2id', { message: password, nonce: salt, parallelism, tagLength, memory, passes });
      return `argon2id$m=${memory},t=${passes},p=${parallelism}$${salt.toString('base64')}$${hash.toString('base64')}`;
    });
  }
  const { N, r, p, keylen } = SCRYPT;
  return bounded(async () => {
    const hash = await scrypt(password, salt, keylen, { N, r, p, maxmem: 128 * N * r * 2 });
    return `scrypt$N=${N},r=${r},p=${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
  });
}

/** Whether `password` is the one `stored` was made from (false for anything unreadable). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, params, saltText, hashText] = stored.split('$');
  if (!scheme || !params || !saltText || !hashText || password.length > MAX_PASSWORD_LENGTH) return false;
  const numbers = Object.fromEntries(params.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
  const salt = Buffer.from(saltText, 'base64');
  const expected = Buffer.from(hashText, 'base64');
  let hashing: () => Promise<Buffer>;
  if (scheme === 'argon2id' && argon2) {
    hashing = () => argon2('argon2id', { message: password, nonce: salt, parallelism: numbers['p']!, tagLength: expected.length, memory: numbers['m']!, passes: numbers['t']! });
  } else if (scheme === 'scrypt') {
    const { N, r, p } = numbers as { N: number; r: number; p: number };
    hashing = () => scrypt(password, salt, expected.length, { N, r, p, maxmem: 128 * N * r * 2 });
  } else return false;
  // Parameters crypto refuses (a damaged row) make a hash that matches nothing.
  const actual = await bounded(() => hashing().catch(() => null));
  return actual !== null && actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/**
 * Stored hashes of nobody's password, with today's parameters: fixed text, so that even the first
 * refusal of an unknown user costs one hash, not the two that making a dummy on first use would.
 */
const NOBODY = {
  argon2: `argon2id$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$bm90IGEgcmVhbCBzYWx0IQ==$${Buffer.alloc(ARGON2.tagLength, 1).toString('base64')}`,
  scrypt: `scrypt$N=${SCRYPT.N},r=${SCRYPT.r},p=${SCRYPT.p}$bm90IGEgcmVhbCBzYWx0IQ==$${Buffer.alloc(SCRYPT.keylen, 1).toString('base64')}`,
};

/** The work of a verification, for a user who does not exist: refusals take the same time either way. */
export async function verifyAgainstNothing(password: string): Promise<false> {
  await verifyPassword(password, argon2 ? NOBODY.argon2 : NOBODY.scrypt);
  return false;
}
