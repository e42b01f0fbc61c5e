/**
 * Scrubbing keys out of anything that may be shown, logged or copied, on both sides: the
 * extension's logs and reports, the client's log lines, and upstream words the gateway relays.
 * Covers `sk-...` keys, `Bearer ...` values, `api_key=...`-style fields and any exact secret the caller knows of.
 */

const SK_KEY = /\bsk-[A-Za-z0-9_-]{4,}/g;
/** `Bearer <value>`, except the documentation placeholder `Bearer <API_KEY>`. */
const BEARER = /\b(Bearer)\s+(?!<API_KEY>)[^\s"'`,;]+/gi;
const KEY_FIELD = /\b((?:api[_-]?key|token|authorization)["']?\s*[:=]\s*["']?)([^\s"',;&]{6,})/gi;

export function redactSecrets(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('****');
  }
  return out
    .replace(BEARER, '$1 ****')
    .replace(SK_KEY, 'sk-****')
    .replace(KEY_FIELD, (_whole, name: string, value: string) => (/^(\*{4}|sk-\*{4}|bearer)$/i.test(value) ? `${name}${value}` : `${name}****`));
}
