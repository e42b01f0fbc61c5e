// stop(): stops accepting, lets requests in flight finish (or aborts them after the grace period), loses no log.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { startGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { startFakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { call, chatBody, startTestGateway, tempDir, type Started } from './helpers.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';

describe('gateway lifecycle', () => {
  it('stop() aborts a request that outlives the grace period, logs it, and refuses new connections', async () => {
    const dir = tempDir();
    const upstream = await startFakeUpstream({ hang: 'headers' });
    try {
      const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, stopGraceMs: 100 });
      const admin = openStore({ dataDir: dir });
      await addChannelPricedFree(admin, newChannel({ name: 'hang', baseUrl: upstream.url, models: { hang: 'hang' }, timeoutMs: 60_000 }));
      await admin.close();
      const pending = fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('hang')),
      }).then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id'), body: await r.text() }), (e: unknown) => e);
      const seen = await upstream.received(1);
      await gw.stop();
      assert.equal(await seen.closed, 'aborted', 'the upstream request was aborted');
      await pending;
      await assert.rejects(fetch(`${gw.url}/api/status`), 'no longer accepting');

      const store = openStore({ dataDir: dir });
      try {
        const logs = await store.listLogs(100);
        const log = logs.find((l) => l.model === 'hang');
        assert.ok(log, 'the aborted request is logged');
        assert.equal(log.cost, 0);
        assert.equal((await store.getAccount('local'))!.balance, 10_000_000 - logs.reduce((s, l) => s + l.cost, 0));
      } finally {
        await store.close();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('while stopping: the request in flight finishes and is charged, then its connection closes; nothing new starts on it', async () => {
    const dir = tempDir();
    const upstream = await startFakeUpstream({ gated: true, pieces: ['one', ' two'] });
    try {
      const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, stopGraceMs: 5000 });
      const admin = openStore({ dataDir: dir });
      await addChannelPricedFree(admin, newChannel({ name: 'gated', baseUrl: upstream.url, models: { gated: 'gated' } }));
      await admin.close();
      const { hostname, port } = new URL(gw.url);
      const request = (body: object) => {
        const text = JSON.stringify(body);
        return `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gw.bootstrapKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
      };
      let received = '';
      const socket = connect(Number(port), hostname);
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(request(chatBody('gated', 'first', { stream: true })));
      await upstream.received(1);
      const stopped = gw.stop();
      socket.write(request(chatBody('echo', 'second')));
      upstream.release(5);
      await closed;
      await stopped;
      const answers = received.split(/(?=HTTP\/1\.1 )/);
      assert.equal(answers.length, 1, 'the request sent after stop() on the same connection is not started');
      assert.match(answers[0]!, /^HTTP\/1\.1 200/);
      assert.match(answers[0]!, /data: \[DONE\]\n\n/, 'the request in flight finished whole');
      const store = openStore({ dataDir: dir });
      try {
        const logs = await store.listLogs(100);
        assert.ok(logs.some((l) => l.model === 'gated' && l.status === 200 && l.errorCode === null), 'the finished one is logged as a success');
        assert.ok(!logs.some((l) => l.model === 'echo'), 'and the later one never ran');
      } finally {
        await store.close();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two gateways in one process share no upstream connection: stopping one closes only its own', async () => {
    const upstream = await startFakeUpstream();
    const a = await startTestGateway();
    const b = await startTestGateway();
    try {
      for (const t of [a, b]) {
        const admin = t.admin();
        await addChannelPricedFree(admin, newChannel({ name: 'up', baseUrl: upstream.url, models: { up: 'up' } }));
      }
      const ask = async (t: Started) => {
        const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('up') });
        assert.equal(answer.status, 200, answer.text);
        return upstream.requests.at(-1)!;
      };
      await ask(a);
      const first = await ask(b);
      assert.equal(upstream.openConnections(), 2, 'one kept-alive upstream connection per gateway');
      await a.close();
      await poll('the stopped gateway to close its upstream connection', () => upstream.openConnections() === 1, 5000, 20);
      const again = await ask(b);
      assert.equal(again.remotePort, first.remotePort, 'the running gateway still uses its own connection');
    } finally {
      await b.close();
      await upstream.close();
    }
  });
});
