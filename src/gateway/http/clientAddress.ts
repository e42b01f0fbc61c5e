/**
 * The address a request came from: the socket's, or, when the operator said the gateway is behind a
 * reverse proxy (`serve --trust-proxy`), the last address of X-Forwarded-For, which that proxy appended
 * (nginx's $proxy_add_x_forwarded_for, see nginx.conf). Earlier entries are what the client claimed and
 * are never trusted; without the setting the header is ignored, since any client can send it.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return socket;
  const header = req.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return socket;
  const last = value.slice(value.lastIndexOf(',') + 1).trim();
  return isIP(last) !== 0 ? last : socket;
}
