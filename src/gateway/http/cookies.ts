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
 * Whether the request came over https: a TLS socket, or, when the operator said the gateway is behind a
 * proxy (`serve --trust-proxy`), that proxy's X-Forwarded-Proto. Without the setting the header is any
 * client's word, and it decides the origin the CSRF check expects and the Secure flag of the cookie.
 */
export function cameOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return true;
  return trustProxy && forwardedProto(req) === 'https';
}

/** The scheme the proxy in front says the client used (X-Forwarded-Proto), whether or not it is trusted. */
export function forwardedProto(req: IncomingMessage): string | null {
  const forwarded = req.headers['x-forwarded-proto'];
  return typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim().toLowerCase() : null;
}

export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
