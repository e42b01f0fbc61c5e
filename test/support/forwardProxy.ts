/** A minimal HTTP proxy on 127.0.0.1:0 (absolute-form forwarding and CONNECT tunnels) that records what passes through it. */
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { listenOnLoopback } from './loopback.ts';

export interface ForwardProxy {
  readonly url: string;
  /** Requests and tunnels seen. */
  hits(): number;
  /** Each one as `METHOD target`, in order (for example `CONNECT 127.0.0.1:4000`). */
  readonly seen: readonly string[];
  stop(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '/');
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.origin,
    hits: () => seen.length,
    seen,
    stop: listening.close,
  };
}
