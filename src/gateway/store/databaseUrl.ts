/**
 * The PostgreSQL database a gateway runs on: --database URL, else MODEL_GATEWAY_DATABASE_URL; none
 * means SQLite in the data folder. The URL carries the database password, so it is never printed:
 * messages name the database by `describeDatabase` (no password) and pass through `redactPassword`.
 */
import { StoreError } from './types.ts';

export const DATABASE_URL_ENV = 'MODEL_GATEWAY_DATABASE_URL';

/** The database URL from the flag or the environment, checked; null for SQLite. */
export function databaseUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv): string | null {
  const url = (flag ?? env[DATABASE_URL_ENV] ?? '').trim();
  if (url === '') return null;
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') || parsed.hostname === '') {
    const from = flag !== undefined ? '--database' : DATABASE_URL_ENV;
    // Not the value itself: it may hold a password.
    throw new StoreError('invalid', `${from} must be a PostgreSQL URL such as postgres://user:password@host:5432/database`);
  }
  return url;
}

/** The database as people may see it: postgres://user@host:port/database, never the password. */
export function describeDatabase(url: string): string {
  const u = new URL(url);
  const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
  return `postgres://${user}${u.host}${u.pathname}`;
}

/** `text` with the URL's password (as written and decoded) replaced by ****. */
export function redactPassword(text: string, url: string | null): string {
  if (url === null || !URL.canParse(url)) return text;
  const raw = new URL(url).password;
  let out = text;
  for (const secret of new Set([raw, safeDecode(raw)])) {
    if (secret) out = out.split(secret).join('****');
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
