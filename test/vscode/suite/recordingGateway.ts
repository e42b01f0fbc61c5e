// A stand-in gateway on loopback that records the Authorization of every request it gets: for the tests that a key
// only ever reaches its own gateway. It lists one chat model and answers the billing reads.
import { createServer } from 'node:http';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';

export interface RecordingGateway extends Listening {
  /** The Authorization header of every request, in order ('' when none came). */
  readonly seen: string[];
}

export async function startRecordingGateway(model: string): Promise<RecordingGateway> {
  const seen: string[] = [];
  const listening = await listenOnLoopback(createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    const json = (body: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/v1/models') return void json({ object: 'list', data: [{ id: model, object: 'model' }] });
    if (req.url?.startsWith('/v1/dashboard/billing/subscription')) return void json({ object: 'billing_subscription', hard_limit_usd: 5 });
    if (req.url?.startsWith('/v1/dashboard/billing/usage')) return void json({ object: 'list', total_usage: 0 });
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here","type":"x"}}');
  }));
  return Object.assign(listening, { seen });
}
