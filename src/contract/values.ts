/**
 * Plain values of the contract that both the gateway and the web console read: no zod here, so the
 * console (a browser bundle) can import them without the schemas. The schema modules re-export them.
 */

/** Every kind of model the gateway serves (contract 1.4). */
export const MODEL_KINDS = ['chat', 'completion', 'embedding', 'image'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** User, account, batch and token names: 1 to 64 letters, digits, ".", "_", "-" or "@". */
export const NAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** A redemption or invitation code's status. */
export const CODE_STATUSES = ['unused', 'used', 'expired', 'disabled'] as const;
export type CodeStatusName = (typeof CODE_STATUSES)[number];

/** Who may make their own account: nobody, anyone, or whoever has an invitation code. */
export const SIGN_UP_MODES = ['off', 'open', 'invitation'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

/** The longest model name taken. */
export const MAX_MODEL_NAME_LENGTH = 256;

/**
 * The longest list a request body may hold (messages, content parts, tools, input items). zod reports one issue
 * per bad element: a 15 MB body of five million `{}` messages took 15 s and 3.5 GB to refuse. A list over its
 * cap is refused by its length first, without looking at its elements.
 */
export const MAX_REQUEST_LIST = 10_000;
/** The longest prompt as a token array (completions, embeddings). */
export const MAX_TOKEN_ARRAY = 65_536;
/** The most prompts or inputs in one request (OpenAI's own limit for embeddings). */
export const MAX_PROMPTS = 2048;

const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL_CHARACTER = new RegExp(`[${CONTROLS}]`);
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/**
 * Whether text holds a control character (no model name does; PostgreSQL text cannot hold NUL at all): C0, DEL and
 * C1 (a terminal reads U+009B as CSI), the line and paragraph separators, and the bidirectional overrides and
 * isolates (which make a name printed in a log or a table read as another).
 */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** Text as printable text with line breaks (a notice): without other control characters and lone surrogates. */
export function printableWithLineBreaks(text: string): string {
  return text.replace(new RegExp(`(?!\\n)[${CONTROLS}]|${LONE_SURROGATE}`, 'g'), '');
}

/**
 * A channel's upstream key as an HTTP header can carry it: printable ASCII (spaces inside allowed). A line break would
 * be refused by Node on every request, and a character past ASCII sent as another: the channel could never work.
 */
export function isChannelKeyText(key: string): boolean {
  return /^[\x20-\x7e]+$/.test(key);
}

/** A model name an operator configures (a channel's, a price's): what clients send, printable, no spaces around it. */
export function isConfigurableModelName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_MODEL_NAME_LENGTH && !hasControlCharacters(name) && name.trim() === name;
}

/** An http:// or https:// URL (a channel's base URL, its proxy), as typed: no control character in it either. */
export function isHttpUrl(value: string): boolean {
  const url = URL.canParse(value) && !hasControlCharacters(value) ? new URL(value) : null;
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:');
}

/** The bounds of a channel's numbers, as `channel add` and the console take them. */
export const CHANNEL_LIMITS = {
  priority: { min: 0, max: 1_000_000_000 },
  weight: { min: 1, max: 1_000_000_000 },
  timeoutMs: { min: 1, max: 1_000_000_000 },
} as const;

/** How long a channel waits for its upstream when no timeout is given. */
export const DEFAULT_CHANNEL_TIMEOUT_MS = 120_000;

/** The bounds of a model's numbers, as `model price` and the console take them. */
export const MODEL_LIMITS = {
  contextLength: { min: 1, max: 1_000_000_000 },
  defaultMaxTokens: { min: 1, max: 10_000_000 },
  /** The most a model writes in one answer (its upstream refuses a larger max_tokens); at most its context when both are set. */
  maxOutputTokens: { min: 1, max: 10_000_000 },
} as const;

/** The ranges a dashboard covers. */
export const DASHBOARD_RANGES = ['24h', '7d', '30d'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

/**
 * At most `max` characters of a client's string kept or echoed, the marker included: a cut one ends with a marker
 * saying how long it was (`abc…(5000 characters)`), so that "at most 256 characters" holds of what is stored.
 */
export function cutWithMarker(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `…(${text.length} characters)`;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}

/** The shortest password accepted for a console user, wherever it is set (the server's check and the console's forms). */
export const MIN_PASSWORD_LENGTH = 10;

/** The most of one client's value (a block's `type`, a parameter's name) an error message quotes. */
export const MAX_QUOTED_CHARS = 64;

/** A client's value quoted in an error message: `"value"`, cut with a marker past MAX_QUOTED_CHARS. */
export function quoteClientValue(value: unknown): string {
  return `"${cutWithMarker(String(value), MAX_QUOTED_CHARS)}"`;
}

/** The most of an error message's detail the gateway sends (the contract's words and the request id come on top). */
export const MAX_ERROR_DETAIL_CHARS = 1024;

/** "an embedding", "a chat": the article for a kind or channel type in a message. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/**
 * The order names are listed in (models, schema names): case-insensitive, then by code unit, so that
 * "Claude" and "gpt-4" sort as people expect. Not localeCompare: that maps ICU's collation data into
 * the process (~2 MB resident for its life) for names that are ASCII identifiers.
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The name of an account's key the console's Playground chats with (made on first use; contract 4.10). */
export const PLAYGROUND_KEY_NAME = 'Playground';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO-8601 date (YYYY-MM-DD, the start of that UTC day) or date-time, as epoch ms; else why not ('' when it is
 * not that shape at all). A date-time without an offset is UTC too, whatever the machine's time zone. A day or time
 * that does not exist (February 30th, 24:00) is refused, not rolled over into the next month as Date.parse would.
 */
export function parseIsoDate(value: string): number | { readonly why: string } {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return { why: '' };
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const lastDay = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > lastDay) return { why: `${value.trim().slice(0, 10)} is not a day of the calendar` };
  if (hour > 23 || minute > 59 || second > 59) return { why: 'that time of day does not exist' };
  const offset = m[8];
  // Time zones run from -12:00 to +14:00.
  if (offset && offset !== 'Z' && (Number(offset.slice(1, 3)) > 14 || Number(offset.slice(-2)) > 59)) return { why: `${offset} is not a time zone's offset` };
  const offsetMs = !offset || offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(-2))) * 60_000;
  const fraction = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  return Date.UTC(year!, month! - 1, day!, hour, minute, second, fraction) - offsetMs;
}

/**
 * An amount as the management API's `usd` text: a plain decimal ("1234.5" is "1234.50", "0.000146" stays), no
 * thousands separators (a reader splits it at the point) and no sign but a minus, exact from the integer.
 */
export function decimalUsd(micro: number): string {
  const abs = BigInt(Math.abs(micro));
  let fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${micro < 0 ? '-' : ''}${abs / 1_000_000n}.${fraction}`;
}

/** The audit log's target for codes made in no batch (the console says it in the reader's language). */
export const NO_BATCH = '(no batch)';
