// A channel with `proxy` reaches its upstream through that HTTP proxy.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { channel, post, startHarness, type Harness } from './harness.ts';

/** A minimal HTTP proxy (CONNECT tunnels and absolute-form requests) that records what it carried. */
async function startProxy(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const target = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      target.pipe(socket);
      socket.pipe(target);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('relay: channel proxy', () => {
  let fake: FakeUpstream;
  let harness: Harness;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  before(async () => {
    fake = await startFakeUpstream();
    proxy = await startProxy();
    harness = await startHarness({ channels: [channel({ baseUrl: fake.url, proxy: proxy.url })] });
  });
  after(async () => {
    await harness.close();
    proxy.server.closeAllConnections();
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await fake.close();
  });

  it('goes through the proxy', async () => {
    const response = await post(harness, { model: 'm', messages: [{ role: 'user', content: 'via proxy' }] });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).model, 'm');
    assert.equal(fake.requests.length, 1);
    const port = new URL(fake.url).port;
    assert.ok(proxy.seen.some((line) => line.includes(`127.0.0.1:${port}`)), `proxy saw: ${proxy.seen.join(', ')}`);
  });
});
