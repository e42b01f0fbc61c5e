/**
 * The short code a person reads in the editor and types (or confirms) in the browser (RFC 8628
 * section 6.1): eight letters from twenty consonants (no vowels: no words; no I, O, U: none of them
 * looks like another character), shown as XXXX-XXXX. About 34 bits: with wrong codes throttled per
 * user and address, and codes living 10 minutes, guessing one is out of reach.
 */
import { randomInt } from 'node:crypto';

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a person typed, as the code is kept: upper case, the dash and spaces (and any other separator)
 * dropped, then the dash put back. Null when it cannot be a code at all (wrong length or letters).
 */
export function normalizeUserCode(typed: string): string | null {
  const letters = typed.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length !== LENGTH || [...letters].some((c) => !ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}
