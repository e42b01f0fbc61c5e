/**
 * API keys as users paste them (contract 5.3: the key must be copied in full, with no
 * spaces): surrounding whitespace, quotes and a leading "Bearer " are removed and the user
 * is told; a blank key, or one with spaces or non-ASCII characters inside, is refused.
 */
import { redactSecrets } from '../contract/index.ts';
import { AuthenticationError } from './errors.ts';

export interface NormalizedApiKey {
  readonly key: string;
  /** Something was removed from around the key. */
  readonly trimmed: boolean;
  /** What was removed, for the user; null when nothing was. */
  readonly note: string | null;
}

export function normalizeApiKey(raw: string): NormalizedApiKey {
  const notes: string[] = [];
  let key = (raw ?? '').trim();
  if (key !== (raw ?? '')) notes.push('spaces or line breaks around it');
  const quoted = /^(["'`])(.*)\1$/s.exec(key);
  if (quoted) {
    key = quoted[2]!.trim();
    notes.push('quotes');
  }
  const bearer = /^bearer(?:\s+|$)/i.exec(key);
  if (bearer) {
    key = key.slice(bearer[0].length).trim();
    notes.push('a leading "Bearer "');
  }
  if (key === '') {
    throw new AuthenticationError({ code: 'missing_api_key', condition: 'missing_api_key', detail: 'The API key is blank. Paste the key created in the console.' });
  }
  if (/\s/.test(key)) {
    throw new AuthenticationError({ code: 'api_key_whitespace', condition: 'api_key_whitespace', detail: 'The API key has spaces or line breaks inside it. Copy the key again, in one piece.' });
  }
  if (/[^\x21-\x7e]/.test(key)) {
    throw new AuthenticationError({ code: 'invalid_api_key', condition: 'invalid_api_key', detail: 'The API key contains characters that API keys never have (non-ASCII). Copy the key again from the console.' });
  }
  const trimmed = notes.length > 0;
  return { key, trimmed, note: trimmed ? `Removed ${notes.join(', ')} from the API key.` : null };
}

/** Replace every occurrence of the key (and anything shaped like a key) in a log line. */
export function redactKey(text: string, key: string | null): string {
  return redactSecrets(text, [key ?? undefined]);
}
