/**
 * The metrics listener (`serve --metrics-port`): GET /metrics in Prometheus' text format, and nothing else,
 * on an address of its own (127.0.0.1 unless the operator says otherwise), so that the metrics, which name
 * models and channels, are not served to the API's clients on the public port.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, sendError } from '../http/errors.ts';
import { newRequestId } from '../http/requestId.ts';
import { EXPOSITION_TYPE } from './exposition.ts';

export const METRICS_PATH = '/metrics';
const MAX_SCRAPE_CONNECTIONS = 32;

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

/** Whether `header` is "Bearer <token>": compared as digests, so the time taken tells nothing of the token. */
function bearerIs(header: string | undefined, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}

/** `token`: when given, a scrape must send it as a Bearer token (for metrics served beyond this machine). */
export async function listenForScrapes(host: string, port: number, token: string | null, scrape: () => Promise<string>, onError: (error: unknown) => void): Promise<MetricsListener> {
  const server: Server = createServer({ requestTimeout: 10_000, headersTimeout: 10_000 }, (req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?', 1)[0];
    const refusal = token !== null && !bearerIs(req.headers.authorization, token) ? new HttpError('metrics_token_required', undefined, { 'WWW-Authenticate': 'Bearer' })
      : path !== METRICS_PATH ? new HttpError('not_found', `This address serves ${METRICS_PATH} only (Prometheus metrics).`)
      : req.method !== 'GET' && req.method !== 'HEAD' ? new HttpError('method_not_allowed', `${METRICS_PATH} accepts GET and HEAD.`, { Allow: 'GET, HEAD' })
      : null;
    if (refusal) {
      sendError(res, newRequestId(), refusal.code, refusal.detail, { headers: refusal.headers });
      return;
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': EXPOSITION_TYPE, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        sendError(res, newRequestId(), 'internal_error');
      },
    );
  });
  // A scraper or two; more connections than that are refused, so this port cannot hold the process's sockets.
  server.maxConnections = MAX_SCRAPE_CONNECTIONS;
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}${METRICS_PATH}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
