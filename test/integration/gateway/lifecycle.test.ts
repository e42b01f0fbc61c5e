// stop(): stops accepting, lets requests in flight finish (or aborts them after the grace period), loses no log.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { Pool } from 'undici';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import type { StoredLog } from '../../../src/gateway/store/types.ts';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { call, chatBody, startTestGateway, tempDir, type Started } from './helpers.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';

/** A gateway on a fresh data folder whose channel `model` goes to a fake upstream behaving as `behaviour`; all gone after `test`. */
async function onGateway(
  behaviour: FakeBehaviour, model: string, options: { stopGraceMs: number; timeoutMs?: number },
  test: (gw: RunningGateway, upstream: FakeUpstream, dir: string) => Promise<void>,
): Promise<void> {
  const dir = tempDir();
  const upstream = await startFakeUpstream(behaviour);
  try {
    const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, stopGraceMs: options.stopGraceMs });
    const admin = openStore({ dataDir: dir });
    await addChannelPricedFree(admin, newChannel({ name: model, baseUrl: upstream.url, models: { [model]: model }, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) }));
    await admin.close();
    await test(gw, upstream, dir);
  } finally {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stopped gateway's request logs and the balance of its bootstrapped account, read from its folder. */
async function storedOf(dir: string): Promise<{ logs: StoredLog[]; balance: number }> {
  const store = openStore({ dataDir: dir });
  try {
    return { logs: await store.listLogs(1000), balance: (await store.getAccount('local'))!.balance };
  } finally {
    await store.close();
  }
}

describe('gateway lifecycle', () => {
  it('stop() aborts a request that outlives the grace period, logs it, and refuses new connections', async () => {
    await onGateway({ hang: 'headers' }, 'hang', { stopGraceMs: 100, timeoutMs: 60_000 }, async (gw, upstream, dir) => {
      const pending = fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('hang')),
      }).then(async (r) => ({ status: r.status, id: r.headers.get('x-request-id'), body: await r.text() }), (e: unknown) => e);
      const seen = await upstream.received(1);
      await gw.stop();
      assert.equal(await seen.closed, 'aborted', 'the upstream request was aborted');
      await pending;
      await assert.rejects(fetch(`${gw.url}/api/status`), 'no longer accepting');

      const { logs, balance } = await storedOf(dir);
      const log = logs.find((l) => l.model === 'hang');
      assert.ok(log, 'the aborted request is logged');
      // As what it was: cut by the gateway's stop, not by its client.
      assert.deepEqual([log.status, log.errorCode], [503, 'gateway_stopping']);
      assert.equal(log.cost, 0);
      assert.equal(balance, 10_000_000 - logs.reduce((sum, l) => sum + l.cost, 0));
    });
  });

  it('a stream still open when the stop grace is over ends with a gateway_stopping error event, and is logged so', async () => {
    await onGateway({ gated: true, pieces: ['one', ' two'] }, 'gated', { stopGraceMs: 100 }, async (gw, upstream, dir) => {
      const answer = fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('gated', 'hi', { stream: true })),
      }).then(async (r) => ({ id: r.headers.get('x-request-id'), text: await r.text() }));
      await upstream.received(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await gw.stop();
      const { id, text } = await answer;
      assert.match(text, /"code":"gateway_stopping"/, text);
      assert.doesNotMatch(text, /\[DONE\]/);
      const { logs } = await storedOf(dir);
      assert.equal(logs.find((l) => l.requestId === id)?.errorCode, 'gateway_stopping');
    });
  });

  it('while stopping: the request in flight finishes and is charged; one sent after stop() on its connection gets 503 gateway_stopping, then the connection closes', async () => {
    await onGateway({ gated: true, pieces: ['one', ' two'] }, 'gated', { stopGraceMs: 5000 }, async (gw, upstream, dir) => {
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
      assert.equal(answers.length, 2, 'both requests on the connection were answered');
      assert.match(answers[0]!, /^HTTP\/1\.1 200/);
      assert.match(answers[0]!, /data: \[DONE\]\n\n/, 'the request in flight finished whole');
      assert.match(answers[1]!, /^HTTP\/1\.1 503/);
      assert.match(answers[1]!, /\r\nConnection: close\r\n/i, 'the answer sent while stopping closes its connection');
      assert.match(answers[1]!, /\r\nRetry-After: 1\r\n/i);
      assert.match(answers[1]!, /"code":"gateway_stopping"/);
      await assert.rejects(fetch(`${gw.url}/api/status`), 'no new connection is accepted');
      const { logs } = await storedOf(dir);
      assert.ok(logs.some((l) => l.model === 'gated' && l.status === 200 && l.errorCode === null), 'the first is logged as a success');
      assert.ok(!logs.some((l) => l.model === 'echo'), 'the second never ran');
    });
  });

  it('while stopping: a kept-alive connection left idle is closed, though a long request still drains on another', async () => {
    await onGateway({ gated: true, pieces: ['one', ' two', ' three'] }, 'gated', { stopGraceMs: 10_000 }, async (gw, upstream) => {
      const { hostname, port } = new URL(gw.url);
      const idle = connect(Number(port), hostname);
      idle.on('error', () => undefined);
      let answered = '';
      idle.on('data', (chunk) => (answered += chunk.toString()));
      const idleClosed = new Promise<void>((resolve) => idle.on('close', () => resolve()));
      const body = JSON.stringify(chatBody('echo', 'hello'));
      idle.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gw.bootstrapKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await poll('its first answer', async () => (answered.includes('"finish_reason"') ? true : undefined), 5000, 10);
      const long = call(gw, 'POST', '/v1/chat/completions', { key: gw.bootstrapKey!, body: chatBody('gated', 'long', { stream: true }) });
      await upstream.received(1);
      const stopped = gw.stop();
      const started = performance.now();
      await idleClosed;
      // Loose: closed half a second into the stop, where Node's keep-alive timeout alone would take 5 s.
      assert.ok(performance.now() - started < 2500, 'closed while the long request was still in flight');
      upstream.release(5);
      const done = await long;
      assert.equal(done.status, 200);
      assert.match(done.text, /data: \[DONE\]/, 'the request in flight finished whole');
      await stopped;
    });
  });

  it('stopping under keep-alive load: no answer is cut, and a request sent on an open connection gets 503 gateway_stopping, never a reset', async () => {
    await onGateway({ chunks: 5, chunkDelayMs: 60 }, 'slow', { stopGraceMs: 5000 }, async (gw, _upstream, dir) => {
      const outcomes = new Map<string, number>();
      let sent = 0;
      const client = new Pool(gw.url, { connections: 20, pipelining: 1 });
      const one = async (): Promise<void> => {
        let outcome: string;
        try {
          const answer = await client.request({
            path: '/v1/chat/completions', method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' },
            body: JSON.stringify(chatBody('slow', 'x', { stream: true })),
          });
          const text = await answer.body.text();
          outcome = answer.statusCode === 200 && text.includes('data: [DONE]') ? 'whole'
            : answer.statusCode === 503 && text.includes('gateway_stopping') ? 'stopping' : `cut ${answer.statusCode}`;
        } catch (error) {
          outcome = `error ${(error as { code?: string }).code ?? String(error)}`;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      };
      // Each client sends again as soon as it is answered, until the gateway says it is stopping or refuses a connection.
      const workers = Array.from({ length: 20 }, async () => {
        while (sent < 400 && !outcomes.has('error ECONNREFUSED') && !outcomes.has('stopping')) {
          sent++;
          await one();
        }
      });
      await poll('streams in flight', async () => (sent > 30 ? true : undefined), 5000);
      await gw.stop();
      await Promise.all(workers);
      await client.close();
      const whole = outcomes.get('whole') ?? 0;
      const kinds = [...outcomes.keys()];
      assert.ok(kinds.includes('whole') && kinds.every((k) => ['whole', 'stopping', 'error ECONNREFUSED'].includes(k)),
        `answered whole, told the gateway is stopping, or a new connection refused; nothing cut or reset: ${JSON.stringify([...outcomes])}`);
      assert.equal((await storedOf(dir)).logs.filter((l) => l.model === 'slow').length, whole, 'each answer has its log row');
    });
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
