/**
 * CSRF defence for the console's state-changing requests. A session cookie rides along with any request
 * the browser makes to this address, including a form another site posts here; so such a request must
 * show it came from the console page itself: an Origin header naming this very address (browsers send
 * it on every POST and scripts cannot forge it), or, from a client that sends no Origin at all, the
 * console's own header, which another site's page can only add after a CORS preflight our answers never
 * grant with credentials. And the body must be JSON: an HTML form cannot send application/json.
 */
import type { IncomingMessage } from 'node:http';
import { cameOverHttps, forwardedProto } from './cookies.ts';
import { CONSOLE_HEADER } from '../../contract/index.ts';
import { HttpError } from './errors.ts';

/** The header the console page sets on its requests (the contract's name). */
export { CONSOLE_HEADER };

export function requireSameOrigin(req: IncomingMessage, trustProxy: boolean): void {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (origin === undefined) {
    if (req.headers[CONSOLE_HEADER] === '1') return;
    throw new HttpError('cross_site_request', `Send the header "${CONSOLE_HEADER}: 1" from scripts that have no Origin.`);
  }
  const own = host === undefined ? null : `${cameOverHttps(req, trustProxy) ? 'https' : 'http'}://${host.toLowerCase()}`;
  if (own === null || origin.toLowerCase() !== own) {
    const untrustedHttps = !trustProxy && forwardedProto(req) === 'https' && origin.toLowerCase() === `https://${host?.toLowerCase()}`;
    throw new HttpError('cross_site_request', untrustedHttps ? 'Behind an HTTPS proxy? Start the gateway with serve --trust-proxy so that it believes X-Forwarded-Proto.' : undefined);
  }
}

export function requireJsonBody(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError('json_required');
}
