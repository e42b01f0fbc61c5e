// A client that reads slowly slows the upstream down instead of filling the gateway's memory, and
// its slowness is not taken for an upstream gone silent.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHarness, type Harness } from './harness.ts';

/**
 * 64 MB of answer in 4,000 events: more than the sockets' kernel buffers on both hops can take
 * (loopback receive buffers here grow to 32 MB).
 */
const EVENTS = 4_000;
const PIECE = 'x'.repeat(16_000);

/** An upstream that writes as fast as its connection takes it (waiting for 'drain') and counts what it got out. */
async function startFloodingUpstream(): Promise<{ url: string; written: () => number; finished: () => boolean; close: () => Promise<void> }> {
  let written = 0;
  let finished = false;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < EVENTS; i++) {
        const delta = i === 0 ? { role: 'assistant', content: PIECE } : { content: PIECE };
        const event = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'up-m', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
        written += event.length;
        if (!res.write(event)) await once(res, 'drain');
      }
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'up-m', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
      res.end('data: [DONE]\n\n');
      finished = true;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    written: () => written,
    finished: () => finished,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('relay: a slow client', () => {
  let upstream: Awaited<ReturnType<typeof startFloodingUpstream>>;
  let harness: Harness;

  beforeEach(async () => {
    upstream = await startFloodingUpstream();
    // The upstream's idle clock (0.6 s) is shorter than the client's pause: only a clock that stops
    // while the gateway waits for the client lets this stream finish.
    harness = await startHarness({ channels: [{ baseUrl: upstream.url, models: { 'platform-m': 'up-m' }, timeoutMs: 600 }] });
  });
  afterEach(async () => {
    await harness.close();
    await upstream.close();
  });

  it('holds the upstream back while it does not read, then gets the whole answer', async () => {
    const body = JSON.stringify({ model: 'platform-m', stream: true, messages: [{ role: 'user', content: 'flood' }] });
    const req = request(`${harness.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${harness.key}` },
    });
    req.end(body);
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    assert.equal(res.statusCode, 200);
    res.pause();
    await sleep(1_500);
    const early = upstream.written();
    await sleep(500);
    const late = upstream.written();
    assert.ok(!upstream.finished(), 'the upstream could not finish while the client read nothing');
    assert.equal(late, early, `the upstream was held: it wrote nothing more in the last half second of the pause (${early} bytes, then ${late})`);

    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.resume();
    await once(res, 'end');
    assert.ok(upstream.finished());
    const events = Buffer.concat(chunks).toString('utf8').split('\n\n').filter(Boolean);
    assert.equal(events.at(-1), 'data: [DONE]');
    const text = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)).choices[0]?.delta?.content ?? '').join('');
    assert.equal(text.length, EVENTS * PIECE.length, 'every piece arrived');
    const log = await harness.log(1);
    assert.equal(log.errorCode, null);
    assert.equal(log.status, 200);
  }).timeout(20_000);
});
