/**
 * The /v1 rule of contract 1.6. Users paste the base address with or without `/v1`, with a
 * trailing slash, with spaces, or even a whole endpoint URL; the client accepts all of these
 * and works with two forms: the root (for /api/status and the console) and the API base
 * (root + /v1). When a path error shows the form is still wrong, addressCandidates() lists
 * the other forms worth probing and addressHint() says which one works.
 */
import { CLIENT_ERROR_CODES, InvalidResponseError } from './errors.ts';

export interface NormalizedBaseUrl {
  /** Root of the service, without a trailing slash: `https://host` or `https://host/prefix`. */
  readonly root: string;
  /** OpenAI-compatible API base: root + `/v1`. */
  readonly apiBase: string;
  /** What was changed on the way in, for the user (null when nothing was). */
  readonly note: string | null;
}

/** Endpoint paths users paste along with the address; removed (with a note). */
const ENDPOINT_SUFFIXES = ['/chat/completions', '/completions', '/models', '/api/status'];

function invalidBaseUrl(detail: string): InvalidResponseError {
  return new InvalidResponseError({ code: CLIENT_ERROR_CODES.invalid_base_url, detail, status: null });
}

export function normalizeBaseUrl(input: string): NormalizedBaseUrl {
  const text = (input ?? '').trim();
  if (text === '') throw invalidBaseUrl('The base URL is empty. Set it to the address of the gateway, for example https://host or https://host/v1.');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw invalidBaseUrl(`The base URL "${text}" has no http:// or https:// scheme. Write it as https://${text.replace(/^\/+/, '')}.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidBaseUrl(`The base URL "${text}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidBaseUrl(`The base URL must start with http:// or https://, not ${url.protocol}//.`);
  }
  if (url.username || url.password) throw invalidBaseUrl('The base URL must not contain a user name or password; put the API key in the key setting.');
  const notes: string[] = [];
  if (url.search || url.hash) notes.push('removed the query string');
  let path = url.pathname.replace(/\/+$/, '');
  for (const suffix of ENDPOINT_SUFFIXES) {
    if (path.toLowerCase().endsWith(suffix)) {
      path = path.slice(0, -suffix.length).replace(/\/+$/, '');
      notes.push(`removed the endpoint path ${suffix}`);
      break;
    }
  }
  if (/\/v1$/i.test(path)) path = path.slice(0, -3);
  const root = `${url.origin}${path}`;
  return { root, apiBase: `${root}/v1`, note: notes.length ? `Base URL: ${notes.join(', ')}.` : null };
}

/** A form of the base address worth trying after a path error, with the value the user should set. */
export interface AddressCandidate {
  readonly apiBase: string;
  /** What to put in the base URL setting for this form to be used. */
  readonly suggestion: string;
}

/**
 * Other API bases to probe when `base.apiBase` gave a path error: each shorter prefix of the
 * root + /v1 (catches `/v1/v1` and `https://host/v1/api`), then the root itself without /v1
 * (a gateway that mounts the OpenAI API elsewhere). At most `limit`, never the current one.
 */
export function addressCandidates(base: NormalizedBaseUrl, limit = 4): AddressCandidate[] {
  const url = new URL(base.root);
  const segments = url.pathname.split('/').filter(Boolean);
  const out: AddressCandidate[] = [];
  const add = (apiBase: string, suggestion: string) => {
    if (apiBase !== base.apiBase && !out.some((c) => c.apiBase === apiBase)) out.push({ apiBase, suggestion });
  };
  for (let n = segments.length - 1; n >= 0; n--) {
    const root = `${url.origin}${n ? '/' + segments.slice(0, n).join('/') : ''}`;
    add(`${root}/v1`, `${root}/v1`);
  }
  add(base.root, base.root);
  return out.slice(0, limit);
}

/** The sentence for a path error at an address whose API answers: the endpoint is missing, not the address wrong. */
export function addressRightHint(base: NormalizedBaseUrl): string {
  return `The base URL is right: the API answers at ${base.apiBase} (GET /models). This gateway does not offer the endpoint that was asked for.`;
}

/** The sentence telling the user which form of the address works (or that none answered). */
export function addressHint(configured: string, base: NormalizedBaseUrl, working: AddressCandidate | null): string {
  const shown = configured.trim();
  if (working === null) {
    return `No OpenAI-compatible API answered at ${base.apiBase} or the usual other forms of this address. Check the base URL: it should be the gateway's address, with or without /v1.`;
  }
  if (/\/v1\/v1\/?$/i.test(shown)) {
    return `Your base URL ends in /v1/v1. Use ${working.suggestion} instead of ${shown}.`;
  }
  return `The API answers at ${working.apiBase}, not at ${base.apiBase}. Use ${working.suggestion} instead of ${shown}.`;
}
