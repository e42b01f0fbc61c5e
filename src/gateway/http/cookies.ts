/** The console's session cookie: read from the Cookie header, written HttpOnly, SameSite=Strict, Path=/, Secure over https. */
import type { IncomingMessage } from 'node:http';

import { SESSION_COOKIE } from '../../contract/index.ts';

/** Its name is the contract's (the OpenAPI document's security scheme names it). */
export { SESSION_COOKIE };

/** The value of cookie `name` in the request, or undefined. Malformed pairs are skipped. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * Whether the request came over https: a TLS socket, or a proxy's X-Forwarded-Proto. Trusting the
 * header is safe here because it only adds Secure to the cookie: a client that lies gets a cookie its
 * browser will not send back over http, nothing more.
 */
export function cameOverHttps(req: IncomingMessage): boolean {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const forwarded = req.headers['x-forwarded-proto'];
  return encrypted || (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim().toLowerCase() === 'https');
}

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
