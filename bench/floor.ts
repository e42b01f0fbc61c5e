/**
 * The floor: a plain pass-through HTTP proxy, what any Node hop costs. Keep-alive on both sides,
 * bodies piped both ways, no parsing. Run in its own child process with UPSTREAM=<origin>.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.env.UPSTREAM ?? 'http://127.0.0.1:1');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096 });

const server = createServer({ keepAliveTimeout: 60_000, noDelay: true }, (req, res) => {
  const up = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
    (upRes) => {
      const headers = { ...upRes.headers };
      delete headers.connection;
      delete headers['keep-alive'];
      res.writeHead(upRes.statusCode ?? 502, headers);
      upRes.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('disconnect', () => process.exit(0));
