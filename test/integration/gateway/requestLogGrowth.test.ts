// The request log cannot grow without bound: requests without a valid key are sampled per source and
// minute (the rest counted in the operator's log), and rows past the retention are pruned, in the
// background and with `model-gateway logs prune --before DATE`; pruning never touches a balance.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { main } from '../../../src/gateway/cli.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';
import { SAMPLE_PER_MINUTE } from '../../../src/gateway/unauthenticated.ts';
import { call, chatBody, tempDir } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;

function row(time: number, requestId: string): RequestLog {
  return {
    time, requestId, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null, model: 'echo', channel: null,
    status: 200, errorCode: null, promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0, latencyMs: 1, firstByteMs: null, stream: false,
  };
}

describe('request log growth', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`a flood without a valid key: ${SAMPLE_PER_MINUTE} rows per source and minute, the rest counted for the operator`, async () => {
    const lines: string[] = [];
    const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0, log: (line) => lines.push(line) });
    try {
      for (let i = 0; i < 40; i++) assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key: `sk-wrong-${i}`, body: chatBody() })).status, 401);
      assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key: gw.bootstrapKey!, body: chatBody() })).status, 200, 'keyed requests are logged as ever');
    } finally {
      await gw.stop();
    }
    const store = openStore({ dataDir: dir });
    try {
      const logs = await store.listLogs(1000);
      assert.ok(logs.filter((l) => l.status === 401).length <= SAMPLE_PER_MINUTE * 2, 'a sample, not the flood (a minute boundary may split it in two)');
      assert.ok(logs.filter((l) => l.status === 401).length >= SAMPLE_PER_MINUTE);
      assert.equal(logs.filter((l) => l.status === 200).length, 1);
    } finally {
      await store.close();
    }
    const counted = lines.filter((l) => /requests without a valid key from 127\.0\.0\.1 in the minute from/.test(l));
    assert.ok(counted.length >= 1, lines.join('\n'));
    const total = counted.reduce((sum, l) => sum + Number(/^(\d+) requests/.exec(l)![1]), 0);
    assert.ok(total >= 40 - SAMPLE_PER_MINUTE && total <= 40, `the operator's log counts the flood (${total})`);
  });

  it('behind a proxy (trustProxy), each client behind it is its own source: its own sample, counted under its address', async () => {
    const lines: string[] = [];
    const gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0, trustProxy: true, log: (line) => lines.push(line) });
    try {
      for (const client of ['10.0.0.1', '10.0.0.2']) {
        for (let i = 0; i < SAMPLE_PER_MINUTE + 5; i++) {
          const answer = await call(gw, 'POST', '/v1/chat/completions', { key: `sk-wrong-${i}`, body: chatBody(), headers: { 'x-forwarded-for': client } });
          assert.equal(answer.status, 401);
        }
      }
    } finally {
      await gw.stop();
    }
    const store = openStore({ dataDir: dir });
    try {
      // Each client keeps its own sample: one source for everyone behind the proxy would have kept one.
      assert.ok((await store.listLogs(1000)).filter((l) => l.status === 401).length >= 2 * SAMPLE_PER_MINUTE);
    } finally {
      await store.close();
    }
    for (const client of ['10.0.0.1', '10.0.0.2']) assert.ok(lines.some((l) => l.includes(`requests without a valid key from ${client} in the minute`)), lines.join('\n'));
  });

  it('logs prune --before DATE deletes older rows only, and never a balance; a bad date is refused', async () => {
    const store = openStore({ dataDir: dir });
    const now = Date.now();
    try {
      await store.createAccount('a', 5_000_000);
      await store.write({ logs: [row(now - 200 * DAY, 'old-1'), row(now - 100 * DAY, 'old-2'), row(now - DAY, 'recent')], keysUsed: new Map() });
    } finally {
      await store.close();
    }
    let out = '';
    const io = { out: (l: string) => void (out += l), err: (l: string) => void (out += l) };
    const cutoff = new Date(now - 150 * DAY).toISOString().slice(0, 10);
    assert.equal(await main(['--data', dir, 'logs', 'prune', '--before', cutoff], io, {}), 0);
    assert.match(out, /pruned 1 request log rows/);
    assert.equal(await main(['--data', dir, 'logs', 'prune', '--before', 'last week'], io, {}), 2);
    assert.equal(await main(['--data', dir, 'logs', 'prune', '--before', '2026-02-30'], io, {}), 2, 'a day that does not exist');
    assert.equal(await main(['--data', dir, 'logs', 'prune', '--before', '2099-01-01'], io, {}), 2, 'a day to come would take every row');
    assert.equal(await main(['--data', dir, 'logs', 'prune'], io, {}), 2);
    const after = openStore({ dataDir: dir });
    try {
      assert.deepEqual((await after.listLogs(10)).map((l) => l.requestId).sort(), ['old-2', 'recent']);
      assert.equal((await after.getAccount('a'))!.balance, 5_000_000);
    } finally {
      await after.close();
    }
  });

  it('rows past the retention are pruned in the background when the gateway starts', async () => {
    const store = openStore({ dataDir: dir });
    const now = Date.now();
    try {
      await store.write({ logs: [row(now - 40 * DAY, 'past-retention'), row(now - 10 * DAY, 'within')], keysUsed: new Map() });
    } finally {
      await store.close();
    }
    const lines: string[] = [];
    const gw = await startGateway({ dataDir: dir, port: 0, logRetentionDays: 30, log: (line) => lines.push(line) });
    try {
      const deadline = Date.now() + 5000;
      while (!lines.some((l) => /pruned 1 request log rows older than 30 days/.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(lines.some((l) => /pruned 1 request log rows older than 30 days/.test(l)), lines.join('\n'));
    } finally {
      await gw.stop();
    }
    const after = openStore({ dataDir: dir });
    try {
      assert.deepEqual((await after.listLogs(10)).map((l) => l.requestId), ['within']);
    } finally {
      await after.close();
    }
  });
});
