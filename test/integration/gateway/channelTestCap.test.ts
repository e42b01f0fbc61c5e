// A channel test reads at most a megabyte of the upstream's answer: one that never ends (or runs to
// hundreds of megabytes) is cut there, not held in memory until the channel's timeout.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testChannel } from '../../../src/gateway/channelTest.ts';
import type { ChannelRecord } from '../../../src/gateway/store/types.ts';

describe('channel test: an endless answer', () => {
  let server: Server;
  let sent = 0;
  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('is read up to its cap and the test answers at once', async () => {
    const channel = { name: 'endless', type: 'openai', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'k', models: { m: 'm' }, timeoutMs: 60_000 } as unknown as ChannelRecord;
    const outcome = await testChannel(channel, 'm', 60_000);
    assert.equal(outcome.ok, true);
    assert.equal(outcome.status, 200);
    assert.ok(sent < 64 * 1024 * 1024, `the upstream was stopped after ${sent} bytes`);
  });
});
