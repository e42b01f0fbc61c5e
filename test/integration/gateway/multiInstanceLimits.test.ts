// A key's requests per minute and concurrency across three `model-gateway serve --database URL`
// processes on one PostgreSQL database (issue 12, docs/multi-instance.md "Limits across instances"):
// the load is spread round-robin, as a load balancer would, and each limit is checked against what
// really passed: the request logs of one minute window, and the upstream's own count of requests in
// flight. With each instance limiting alone (the design before), three times the limit would pass.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { chatBody } from './helpers.ts';
import { ROOT, startInstances, type Instances, type Served } from './serveProcess.ts';

/**
 * `total` chat requests (or as many as start within `forMs`), `parallel` at a time, round-robin over
 * the instances: each answer's status and error code. After a 429 a worker waits `pauseMs`, as a
 * client honouring Retry-After would, only sooner.
 */
async function load(instances: Served[], key: string, total: number, parallel: number, forMs = Infinity, pauseMs = 0): Promise<Array<{ instance: number; status: number; code: string | null }>> {
  const outcomes: Array<{ instance: number; status: number; code: string | null }> = [];
  let next = 0;
  const until = performance.now() + forMs;
  const worker = async (): Promise<void> => {
    while (next < total && performance.now() < until) {
      const instance = next++ % instances.length;
      const res = await fetch(`${instances[instance]!.gw.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody('gpt-x', 'hello there', { max_tokens: 16 })),
      });
      const text = await res.text();
      const code = res.status === 200 ? null : ((JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null);
      outcomes.push({ instance, status: res.status, code });
      if (res.status === 429 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return outcomes;
}

describe('several serve --database instances on one PostgreSQL database: key limits', function () {
  this.timeout(120_000);
  let instances: Instances;
  let upstream: FakeUpstream;
  let url: string;
  let started: Served[];
  const cli = (...args: string[]): Promise<string> => instances.cli(...args);

  before(() => execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT }));
  beforeEach(async () => {
    instances = await startInstances(3, 'gpt-x', '3', '7');
    ({ upstream, url, started } = instances);
  });
  afterEach(async () => instances.stop());

  it('admits at most a key\'s requests per minute in a minute window, whichever instances the requests reach', async () => {
    const RPM = 30;
    const key = (await cli('key', 'create', '--account', 'team', '--name', 'rpm-key', '--rpm', String(RPM), '--concurrency', '0')).trim();
    // The load (a second or two) in one minute window of the instances' clock: not in a minute's last 15 s.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const outcomes = await load(started, key, 150, 15);
    const served = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status !== 200);
    const perInstance = [0, 1, 2].map((i) => served.filter((o) => o.instance === i).length);
    console.log(`      rpm ${RPM}: ${served.length} of 150 served (${perInstance.join(', ')} per instance), ${refused.length} refused`);
    assert.deepEqual([...new Set(refused.map((o) => `${o.status} ${o.code}`))], ['429 rate_limited']);
    // What passed, per minute window, as the request logs record it.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ minute: string; n: string }>(
      `SELECT (time / 60000)::text AS minute, count(*)::text AS n FROM request_logs WHERE status = 200 AND key_name = 'rpm-key' GROUP BY 1 ORDER BY 1`);
    await client.end();
    assert.equal(rows.reduce((sum, r) => sum + Number(r.n), 0), served.length, 'every served request logged');
    for (const r of rows) assert.ok(Number(r.n) <= RPM, `minute ${r.minute}: ${r.n} served, limit ${RPM}`);
    // The limit is shared, not starved: the whole minute's worth passed, through more than one instance.
    assert.equal(served.length, RPM, 'the whole minute of the key was served');
    assert.ok(perInstance.filter((n) => n > 0).length >= 2, `served through several instances: ${perInstance.join(', ')}`);
  });

  it('holds a key\'s concurrency across instances, counted by the upstream, and gives the slots back when the load ends', async () => {
    const LIMIT = 4;
    const key = (await cli('key', 'create', '--account', 'team', '--name', 'conc-key', '--rpm', '0', '--concurrency', String(LIMIT))).trim();
    let inFlight = 0;
    let most = 0;
    upstream.behaviour = (request) => {
      most = Math.max(most, ++inFlight);
      void request.closed.then(() => inFlight--);
      return { headersDelayMs: 150 };
    };
    // For 3 s, 24 clients at a time: at most 4 × 3000 / 150 = 80 could be served.
    const outcomes = await load(started, key, Infinity, 24, 3000, 25);
    const served = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status !== 200);
    const perInstance = [0, 1, 2].map((i) => served.filter((o) => o.instance === i).length);
    console.log(`      concurrency ${LIMIT}: at most ${most} at the upstream at once; ${served.length} served (${perInstance.join(', ')} per instance), ${refused.length} refused`);
    assert.deepEqual([...new Set(refused.map((o) => `${o.status} ${o.code}`))], ['429 concurrency_limited']);
    assert.ok(most <= LIMIT, `at most ${LIMIT} requests in flight upstream, saw ${most}`);
    assert.equal(most, LIMIT, 'the limit is reached, not starved');
    // Slots move between instances only at exchanges: some are idle a moment (the tolerance), not most.
    assert.ok(served.length >= 40, `requests served: ${served.length} of at most 80`);
    // Idle again: every instance's slots go back at its next exchange, so one request at a time passes on each.
    await new Promise((r) => setTimeout(r, 2500));
    const after = await load(started, key, 3, 1);
    assert.deepEqual(after.map((o) => o.status), [200, 200, 200]);
  });
});
