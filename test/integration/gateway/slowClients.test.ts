// Slow or stalled clients hold nothing for long: the whole request (headers and body) has a deadline
// (408), bodies being received share a memory budget (503 with Retry-After beyond it), open
// connections are capped (more are refused at once), and a keyed request counts against its key's
// concurrency from the moment its key is known, upload included.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createKey } from '../../../src/gateway/admin.ts';
import { call, chatBody, startTestGateway, waitForLog, type Started } from './helpers.ts';

/** A raw connection to the gateway, collecting what it answers. */
function open(t: Started): Promise<{ socket: Socket; answer: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(t.gw.url);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => resolve({ socket, answer: () => text, closed }));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
  });
}

const head = (key: string, length: number) =>
  `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

function statusAndCode(answer: string): [number, string | undefined] {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  return [status, /"code":"([a-z_]+)"/.exec(answer)?.[1]];
}

describe('slow and stalled clients', () => {
  let t: Started;
  before(async () => {
    t = await startTestGateway({ requestDeadlineMs: 400, bodyBudgetBytes: 100_000, maxConnections: 6 });
  });
  after(() => t.close());

  it('a body that stalls: 408 request_timeout within the deadline, logged as such', async () => {
    const c = await open(t);
    c.socket.write(head(t.key, 1000) + '{"model":');
    await c.closed;
    assert.deepEqual(statusAndCode(c.answer()), [408, 'request_timeout']);
    assert.ok(await waitForLog(t.admin(), (l) => l.status === 408 && l.errorCode === 'request_timeout'));
  });

  it('headers that stall: 408 request_timeout too', async () => {
    const c = await open(t);
    c.socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n');
    await c.closed;
    assert.deepEqual(statusAndCode(c.answer()), [408, 'request_timeout']);
  });

  it('bodies over the shared budget: 503 gateway_busy with Retry-After; the budget comes back after', async () => {
    const slow = await open(t);
    slow.socket.write(head(t.key, 200_000) + 'x'.repeat(80_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const busy = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', 'y'.repeat(40_000)) });
    assert.equal(busy.status, 503);
    assert.equal(busy.json.error.code, 'gateway_busy');
    assert.equal(busy.headers.get('retry-after'), '1');
    slow.socket.destroy();
    await slow.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', 'y'.repeat(40_000)) })).status, 200);
  });

  it("a slow upload counts against its key's concurrency from the start", async () => {
    const { secret } = await createKey(t.admin(), { account: 'local', name: 'one-at-a-time', concurrency: 1 });
    const slow = await open(t);
    slow.socket.write(head(secret, 1000) + '{"model":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
    assert.equal(second.status, 429);
    assert.equal(second.json.error.code, 'concurrency_limited');
    await slow.closed;
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 200, 'the slot is back once the first ends');
  });

  it('connections past the cap are refused at once, and the gateway serves on', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => open(t)));
    const extra = await open(t);
    await extra.closed;
    assert.equal(extra.answer(), '', 'refused without an answer');
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    assert.equal((await call(t.gw, 'GET', '/api/status')).status, 200);
  });
});
