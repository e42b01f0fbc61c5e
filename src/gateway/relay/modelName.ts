/**
 * Answers carry the platform's model name. Rewriting `model` in an upstream JSON text
 * without re-serialising the whole object: the hot path of every chunk of every stream.
 *
 * Why splicing is safe: inside a JSON string every `"` is escaped, so the text `"model"`
 * followed by optional whitespace and `:` can only be an object key. When exactly one such
 * key exists and its raw value is the plain JSON encoding of the parsed top-level `model`,
 * that occurrence is the top-level one and we replace just its value. Anything else (no
 * `model`, two `model` keys, an unusual escaping) falls back to JSON.stringify.
 */

const KEY = '"model"';

export function withPlatformModel(raw: string, parsed: Record<string, unknown>, platformModel: string): string {
  const current = parsed['model'];
  if (current === platformModel) return raw;
  if (typeof current === 'string') {
    const spliced = spliceModel(raw, current, platformModel);
    if (spliced !== null) return spliced;
  }
  parsed['model'] = platformModel;
  return JSON.stringify(parsed);
}

/** `raw` with the value of its one `"model"` key (encoding `current`) replaced; null when that is not certain. */
export function spliceModel(raw: string, current: string, platformModel: string): string | null {
  let found = -1;
  let valueStart = -1;
  for (let at = raw.indexOf(KEY); at !== -1; at = raw.indexOf(KEY, at + KEY.length)) {
    let pos = skipSpace(raw, at + KEY.length);
    if (raw.charCodeAt(pos) !== 58 /* : */) continue;
    if (found !== -1) return null;
    found = at;
    valueStart = skipSpace(raw, pos + 1);
  }
  if (found === -1) return null;
  const encoded = JSON.stringify(current);
  if (!raw.startsWith(encoded, valueStart)) return null;
  return raw.slice(0, valueStart) + JSON.stringify(platformModel) + raw.slice(valueStart + encoded.length);
}

function skipSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
    else return pos;
  }
}
