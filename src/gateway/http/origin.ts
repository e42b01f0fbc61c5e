/**
 * This gateway's address as the client reached it (scheme and Host header), for the absolute URLs an
 * answer names: the console's snippets, the device sign-in's endpoints and verification page.
 */
import type { IncomingMessage } from 'node:http';
import { cameOverHttps } from './cookies.ts';

export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string {
  return `${cameOverHttps(req, trustProxy) ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}`;
}
