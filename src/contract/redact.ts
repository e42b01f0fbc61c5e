/**
 * Scrubbing keys out of anything that may be shown, logged or copied, on both sides: the
 * extension's logs and reports, the client's log lines, and upstream words the gateway relays.
 * Covers `sk-...` keys, `Bearer ...` values, `api_key=...`-style fields and any secret the caller knows of, whole,
 * in part or encoded.
 */

const SK_KEY = /\bsk-[A-Za-z0-9_-]{4,}/g;
/** `Bearer <value>`, except the documentation placeholder `Bearer <API_KEY>`. */
const BEARER = /\b(Bearer)\s+(?!<API_KEY>)[^\s"'`,;]+/gi;
const KEY_FIELD = /\b((?:api[_-]?key|token|authorization)["']?\s*[:=]\s*["']?)([^\s"',;&]{6,})/gi;

export function redactSecrets(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (!secret || secret.length < 4) continue;
    out = out.split(secret).join('****');
    if (secret.length < MIN_PIECE) continue;
    for (const form of formsOf(secret)) out = maskPieces(out, form);
  }
  return out
    .replace(BEARER, '$1 ****')
    .replace(SK_KEY, 'sk-****')
    .replace(KEY_FIELD, (_whole, name: string, value: string) => (/^(\*{4}|sk-\*{4}|bearer)$/i.test(value) ? `${name}${value}` : `${name}****`));
}

/**
 * Upstreams echo a key cut or encoded (its first characters dropped, lowercased, in base64): any run of at least
 * MIN_PIECE characters of the key, in any case, is masked. Shorter runs are too common to be the key's.
 */
const MIN_PIECE = 12;

/** A secret as upstreams echo it: as is, in base64 (standard and URL-safe: the pieces are the same) and in hex. */
function formsOf(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const base64 = btoa(String.fromCharCode(...bytes));
  return [secret, base64, base64.replaceAll('+', '-').replaceAll('/', '_'), Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')];
}

/** `text` with every run of MIN_PIECE or more characters that `secret` also holds (ignoring case) masked as `****`. */
function maskPieces(text: string, secret: string): string {
  const lower = text.toLowerCase();
  const key = secret.toLowerCase();
  const masked = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + MIN_PIECE <= key.length; i++) {
    const piece = key.slice(i, i + MIN_PIECE);
    for (let at = lower.indexOf(piece); at >= 0; at = lower.indexOf(piece, at + 1)) {
      masked.fill(1, at, at + MIN_PIECE);
      any = true;
    }
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!masked[i]) out += text[i];
    else if (i === 0 || !masked[i - 1]) out += '****';
  }
  return out;
}

/**
 * The secrets a channel's settings hold besides its key: a password in its base URL or proxy URL, and the
 * values of its base URL's query (some providers take a key there). Redacted from upstream words shown to
 * anyone, like the key.
 */
export function channelSecrets(channel: { readonly apiKey?: string | null; readonly baseUrl?: string | null; readonly proxy?: string | null }): string[] {
  const out: string[] = channel.apiKey ? [channel.apiKey] : [];
  for (const url of [channel.baseUrl, channel.proxy]) {
    const parsed = url ? URL.parse(url) : null;
    if (!parsed) continue;
    if (parsed.password) out.push(parsed.password, decodeURIComponent(parsed.password));
    for (const value of parsed.searchParams.values()) if (value.length >= 4) out.push(value, encodeURIComponent(value));
  }
  return out;
}

/** A URL as it may be shown: its password and query values masked (`http://user:****@host/v1?key=****`). */
export function shownUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (!parsed.password && !parsed.search)) return url;
  if (parsed.password) parsed.password = '****';
  for (const name of [...parsed.searchParams.keys()]) parsed.searchParams.set(name, '****');
  return parsed.toString().replaceAll('%2A', '*');
}

/**
 * A URL edited from its shown form (shownUrl): each part still masked ('****') takes the value `stored` has
 * there, so that changing the rest of a URL never writes a mask over the secret it hid.
 */
export function unmaskUrl(given: string, stored: string | null): string {
  const edited = URL.parse(given);
  const old = stored ? URL.parse(stored) : null;
  if (!edited || !old || !given.includes('****')) return given;
  if (edited.password === '****' && old.password) edited.password = old.password;
  for (const [name, value] of [...edited.searchParams]) {
    const kept = old.searchParams.get(name);
    if (value === '****' && kept !== null) edited.searchParams.set(name, kept);
  }
  return edited.toString();
}
