/**
 * The floor: a plain pass-through HTTP proxy, what any Node hop costs. node:http in front, one
 * undici Pool (keep-alive, unlimited connections) behind; bodies streamed both ways, no parsing.
 * Run in its own child process with UPSTREAM=<origin>. (A node:http `request` + `pipe` version
 * measured about half as fast here, which would have made the gateway's target too easy.) Answers
 * {type:'stats'} as the gateway children do (childStats.ts), so its event-loop delay is measured beside theirs.
 */
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { answerStats } from './childStats.ts';

const pool = new Pool(process.env.UPSTREAM ?? 'http://127.0.0.1:1', { connections: null, keepAliveTimeout: 60_000 });
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding'];

const server = createServer({ keepAliveTimeout: 60_000, noDelay: true }, (req, res) => {
  const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  pool
    .stream({ path: req.url ?? '/', method: req.method === 'GET' ? 'GET' : 'POST', headers, body: req.method === 'GET' ? null : req }, ({ statusCode, headers: upHeaders }) => {
      const out: OutgoingHttpHeaders = { ...upHeaders };
      for (const h of HOP_BY_HOP) delete out[h];
      res.writeHead(statusCode, out);
      return res;
    })
    .catch(() => res.destroy());
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
answerStats();
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
