/**
 * A channel's secrets as its row holds them, on both SQL stores: the key always sealed (SecretBox), and a base URL
 * or proxy URL sealed whole when it holds a secret (a password, a query value such as `?key=...`, which some
 * providers take instead of a header), so that no secret of a channel is in the database in plain text. A URL
 * without one stays readable, as it was. Rows written before this are read as they are and sealed on open.
 */
import { channelSecrets } from '../../contract/index.ts';
import { isSealed } from './secretBox.ts';
import type { NewChannel } from './types.ts';

/** Seals one secret for its column; `what` names it in an error (PostgreSQL without its secret key). */
export type SealSecret = (plain: string, what: string) => string;

export function holdsSecret(url: string): boolean {
  return channelSecrets({ baseUrl: url }).length > 0;
}

/** A base or proxy URL as its column holds it. */
export function storedUrl(url: string | null, seal: SealSecret, what: string): string | null {
  return url !== null && holdsSecret(url) ? seal(url, what) : url;
}

/** A stored channel row's secret columns. */
export interface SecretColumns {
  readonly id: number;
  readonly api_key: string | null;
  readonly base_url: string | null;
  readonly proxy: string | null;
}

/** A row's secret columns that an older version left in plain text, sealed; null when none was. */
export function sealedPlainSecrets(row: SecretColumns, seal: (plain: string) => string): Omit<SecretColumns, 'id'> | null {
  const key = row.api_key !== null && !isSealed(row.api_key) ? seal(row.api_key) : row.api_key;
  const url = (v: string | null) => (v !== null && !isSealed(v) && holdsSecret(v) ? seal(v) : v);
  const sealed = { api_key: key, base_url: url(row.base_url), proxy: url(row.proxy) };
  return sealed.api_key === row.api_key && sealed.base_url === row.base_url && sealed.proxy === row.proxy ? null : sealed;
}

/** The three secret-bearing columns of a new channel, as stored. */
export function storedSecrets(c: Pick<NewChannel, 'name' | 'baseUrl' | 'apiKey' | 'proxy'>, seal: SealSecret): { baseUrl: string | null; apiKey: string | null; proxy: string | null } {
  return {
    baseUrl: storedUrl(c.baseUrl, seal, `the base URL of channel "${c.name}"`),
    apiKey: c.apiKey === null ? null : seal(c.apiKey, `the key of channel "${c.name}"`),
    proxy: storedUrl(c.proxy, seal, `the proxy of channel "${c.name}"`),
  };
}
