/**
 * Console passwords, stored only as slow salted hashes with their parameters (so they can be raised
 * later): argon2id where the runtime has it (Node 24), scrypt otherwise (the editor's older Node).
 * A wrong password and an unknown user take the same time to refuse (verifyAgainstNothing).
 */
import * as crypto from 'node:crypto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../contract/index.ts';

const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keylen: 32 } as const;

type Argon2Sync = (algorithm: 'argon2id', parameters: { message: string; nonce: Buffer; parallelism: number; tagLength: number; memory: number; passes: number }) => Buffer;
const argon2Sync = (crypto as unknown as { argon2Sync?: Argon2Sync }).argon2Sync;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `a password has at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `a password has at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  if (argon2Sync) {
    const { memory, passes, parallelism, tagLength } = ARGON2;
    const hash = argon2Sync('argon2id', { message: password, nonce: salt, parallelism, tagLength, memory, passes });
    return `argon2id$m=${memory},t=${passes},p=${parallelism}$${salt.toString('base64')}$${hash.toString('base64')}`;
  }
  const { N, r, p, keylen } = SCRYPT;
  const hash = crypto.scryptSync(password, salt, keylen, { N, r, p, maxmem: 128 * N * r * 2 });
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `password` is the one `stored` was made from (false for anything unreadable). */
export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, params, saltText, hashText] = stored.split('$');
  if (!scheme || !params || !saltText || !hashText || password.length > MAX_PASSWORD_LENGTH) return false;
  const numbers = Object.fromEntries(params.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
  const salt = Buffer.from(saltText, 'base64');
  const expected = Buffer.from(hashText, 'base64');
  let actual: Buffer;
  if (scheme === 'argon2id' && argon2Sync) {
    actual = argon2Sync('argon2id', { message: password, nonce: salt, parallelism: numbers['p']!, tagLength: expected.length, memory: numbers['m']!, passes: numbers['t']! });
  } else if (scheme === 'scrypt') {
    const { N, r, p } = numbers as { N: number; r: number; p: number };
    actual = crypto.scryptSync(password, salt, expected.length, { N, r, p, maxmem: 128 * N * r * 2 });
  } else return false;
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
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
export function verifyAgainstNothing(password: string): false {
  verifyPassword(password, argon2Sync ? NOBODY.argon2 : NOBODY.scrypt);
  return false;
}
