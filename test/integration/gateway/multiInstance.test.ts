// Several `model-gateway serve --database URL` processes (the bundled dist/cli.cjs) on one PostgreSQL
// database behind one fake upstream, as issue 12 checks them: concurrent requests spread over three
// instances against a balance worth a few dozen requests; one instance killed with SIGKILL mid-load
// and its lease reclaimed; a key disabled through the CLI and refused by every instance. The money
// is checked in the database itself after every phase (docs/multi-instance.md, "Invariants").
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { chatBody, tempDir } from './helpers.ts';
import { cliWith, ROOT, serveProcess, type Served } from './serveProcess.ts';

/** Seconds a lease lives unrenewed in this test (60 by default): the reclaim is watched, not waited a minute for. */
const LEASE_SECONDS = 3;

async function sql(url: string, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

interface Money {
  balance: number;
  spent: number;
  leased: number;
  inLeases: number;
  logged: number;
  logRows: number;
  chargedTwice: number;
}

/** The account's money as the database holds it, and its request logs' charges. */
async function moneyOf(url: string, account: string): Promise<Money> {
  const [row] = await sql(url, `
    SELECT a.balance::float8 AS balance, a.total_spent::float8 AS spent, a.leased::float8 AS leased,
           (SELECT COALESCE(SUM(amount), 0)::float8 FROM leases WHERE account_id = a.id) AS in_leases,
           (SELECT COALESCE(SUM(cost), 0)::float8 FROM request_logs WHERE account_id = a.id) AS logged,
           (SELECT count(*)::float8 FROM request_logs WHERE account_id = a.id) AS log_rows,
           (SELECT count(*)::float8 FROM (SELECT request_id FROM request_logs GROUP BY request_id HAVING count(*) > 1) d) AS charged_twice
      FROM accounts a WHERE a.name = $1`, [account]);
  const n = (k: string): number => row![k] as number;
  return { balance: n('balance'), spent: n('spent'), leased: n('leased'), inLeases: n('in_leases'), logged: n('logged'), logRows: n('log_rows'), chargedTwice: n('charged_twice') };
}

/** The invariants that hold at every moment: never negative, leases add up, charges once. */
function assertMoneyRules(m: Money, what: string): void {
  assert.ok(m.balance >= 0, `${what}: balance ${m.balance} is not negative`);
  assert.ok(m.leased >= 0 && m.leased <= m.balance, `${what}: 0 <= leased ${m.leased} <= balance ${m.balance}`);
  assert.equal(m.leased, m.inLeases, `${what}: accounts.leased equals the sum of the leases`);
  assert.equal(m.chargedTwice, 0, `${what}: no request logged (charged) twice`);
}

type Outcome = number | 'connection refused';

/** `total` chat requests, `concurrency` at a time, spread round-robin over `targets` (the live ones, read at each send). */
async function load(targets: () => Served[], key: string, total: number, concurrency: number): Promise<Map<string, Outcome[]>> {
  const byInstance = new Map<string, Outcome[]>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const live = targets();
      const target = live[next++ % live.length]!;
      let outcome: Outcome;
      try {
        const res = await fetch(`${target.gw.url}/v1/chat/completions`, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(chatBody('gpt-x', 'hello there', { max_tokens: 16 })),
        });
        const text = await res.text();
        // Served, or refused for money: spent (403) or held elsewhere, by leases or requests in flight (429).
        if (res.status !== 200) assert.match(`${res.status} ${text}`, /^(403 .*insufficient_balance|429 .*balance_in_use)/);
        outcome = res.status;
        // As a client honouring Retry-After would, only sooner: the load spreads over time and the money is spent.
        if (res.status === 429) await new Promise((r) => setTimeout(r, 10));
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        outcome = 'connection refused';
      }
      const list = byInstance.get(target.gw.url) ?? [];
      list.push(outcome);
      byInstance.set(target.gw.url, list);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return byInstance;
}

const count = (outcomes: Map<string, Outcome[]>, status: Outcome): number[] => [...outcomes.values()].map((list) => list.filter((o) => o === status).length);

describe('several serve --database instances on one PostgreSQL database: balance leases', function () {
  this.timeout(120_000);
  let upstream: FakeUpstream;
  let dir: string;
  const started: Served[] = [];
  before(() => execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT }));
  beforeEach(async () => {
    upstream = await startFakeUpstream({});
    dir = tempDir();
  });
  afterEach(async () => {
    // Only the processes this test started, by their own handles.
    for (const s of started.splice(0)) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await s.exited;
    }
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A fresh database with the upstream as channel "up" for gpt-x, and account "team" with $0.002 and its key:
   * 54 micro-USD a request (11 prompt tokens at $3/M, 3 completion tokens at $7/M), so about 37 requests.
   */
  async function teamOnFreshDatabase(): Promise<{ url: string; env: NodeJS.ProcessEnv; cli: (...args: string[]) => Promise<string>; key: string }> {
    const url = await freshDatabase();
    const env: NodeJS.ProcessEnv = {
      ...process.env, MODEL_GATEWAY_DATA: dir, MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64'),
      MODEL_GATEWAY_ECHO_DELAY_MS: '0', MODEL_GATEWAY_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    const cli = (...args: string[]): Promise<string> => cliWith({ ...env, MODEL_GATEWAY_DATABASE_URL: url }, ...args);
    await cli('channel', 'add', '--name', 'up', '--base-url', upstream.url, '--api-key', 'sk-upstream-secret-1', '--models', 'gpt-x');
    await cli('model', 'price', 'gpt-x', '--input', '3', '--output', '7');
    await cli('account', 'create', 'team', '--balance', '0.002');
    const key = (await cli('key', 'create', '--account', 'team', '--name', 'team-key', '--rpm', '0', '--concurrency', '0')).trim();
    return { url, env, cli, key };
  }

  it('keeps money exact across three instances under load, returns a SIGKILLed instance\'s lease after its expiry, and refuses a disabled key on every instance within a second', async () => {
    const { url, env, cli, key } = await teamOnFreshDatabase();

    for (let i = 0; i < 3; i++) started.push(await serveProcess(['--database', url], env));
    const instanceOf = (s: Served): string => /balance leases: instance ([0-9a-f-]{36})/.exec(s.output())![1]!;
    const idle = async (what: string): Promise<Money> => poll(`${what}: every lease handed back or reclaimed`, async () => {
      const m = await moneyOf(url, 'team');
      return m.leased === 0 && m.inLeases === 0 ? m : undefined;
    }, 20_000, 50);

    // Phase 1: 300 requests, 60 at a time, over three instances, against about 37 requests' worth.
    upstream.behaviour = { headersDelayMs: 5 };
    const first = await load(() => started, key, 300, 60);
    const served1 = count(first, 200);
    console.log(`      phase 1: 200s per instance ${served1.join(', ')}; 403s ${count(first, 403).join(', ')}; 429s ${count(first, 429).join(', ')}`);
    // Under this scarcity the spread is uneven (docs/multi-instance.md, tolerances): the money is what is checked.
    assert.ok(served1.some((n) => n > 0), `requests served: ${served1.join(', ')}`);
    const m1 = await idle('phase 1');
    assertMoneyRules(m1, 'phase 1');
    assert.equal(m1.logRows, 300, 'one log row per request');
    assert.equal(2000 - m1.balance, m1.logged, 'the balance fell by exactly the logged charges');
    assert.equal(m1.spent, m1.logged, 'total spent equals the logged charges');
    assert.equal(m1.logged, 54 * served1.reduce((a, b) => a + b, 0), 'each served request charged once, at its price');

    // Phase 2: a top-up, then load; one instance killed with SIGKILL while it holds a lease.
    await cli('account', 'topup', 'team', '0.003');
    upstream.behaviour = { headersDelayMs: 20 };
    // The victim is whichever instance holds a lease first: under this scarcity which one gets the money is
    // uneven (docs/multi-instance.md), and the point is killing one that holds some.
    let killed = false;
    let survivors: Served[] = started;
    const second = load(() => (killed ? survivors : started), key, 400, 30);
    const { victim, victimInstance, held } = await poll('an instance to hold a lease', async () => {
      const [row] = await sql(url, 'SELECT instance::text AS instance, amount::float8 AS amount FROM leases WHERE amount > 0 ORDER BY amount DESC LIMIT 1', []);
      const holder = row && started.find((s) => instanceOf(s) === row.instance);
      return holder ? { victim: holder, victimInstance: row.instance as string, held: row.amount as number } : undefined;
    }, 20_000, 5);
    survivors = started.filter((s) => s !== victim);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    killed = true;
    const outcomes = await second;
    await victim.exited;
    await poll("the victim's lease reclaimed", async () => (await sql(url, 'SELECT 1 FROM leases WHERE instance = $1', [victimInstance])).length === 0, 20_000, 50);
    const reclaimMs = Date.now() - killedAt;
    const m2 = await idle('phase 2');
    console.log(`      phase 2: victim held ${held} micro-USD at the kill; its lease reclaimed ${reclaimMs} ms after SIGKILL (leases live ${LEASE_SECONDS} s); 200s per instance ${count(outcomes, 200).join(', ')}; refused connections ${count(outcomes, 'connection refused').join(', ')}`);
    assertMoneyRules(m2, 'phase 2');
    assert.equal(5000 - m2.balance, m2.logged, 'after the kill: the balance fell by exactly the logged charges (nothing charged twice, nothing lost)');
    assert.equal(m2.spent, m2.logged);
    assert.ok(m2.logged > m1.logged, 'phase 2 served requests');

    // Phase 3: a key disabled through the CLI is refused by every live instance within a second.
    await cli('account', 'topup', 'team', '0.002');
    const ask = (s: Served) => fetch(`${s.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-x', 'hello there', { max_tokens: 16 })),
    }).then(async (res) => ({ status: res.status, text: await res.text() }));
    for (const s of survivors) assert.equal((await ask(s)).status, 200, 'served before the key is disabled');
    await cli('key', 'disable', 'team-key');
    const disabledAt = Date.now();
    let last = '';
    const seen = await Promise.all(survivors.map((s) => poll('the key refused', async () => {
      const answer = await ask(s);
      last = `${answer.status} ${answer.text}`;
      return answer.status === 403 && answer.text.includes('key_disabled') ? Date.now() - disabledAt : undefined;
    }, 1000, 10).catch((error: unknown) => assert.fail(`${String(error)}; last answer: ${last}`))));
    console.log(`      phase 3: key refused by each instance ${seen.join(', ')} ms after the CLI disabled it`);

    // A graceful stop hands every lease back and leaves the sums exact.
    for (const s of survivors) s.child.kill('SIGTERM');
    for (const s of survivors) assert.equal(await s.exited, 0, s.output());
    const m3 = await moneyOf(url, 'team');
    assertMoneyRules(m3, 'after SIGTERM');
    assert.equal(m3.leased, 0, 'a graceful stop hands its leases back');
    assert.equal(7000 - m3.balance, m3.logged);
    assert.equal(m3.spent, m3.logged);
  });

  it('an instance paused past its lease while others spend the money: its answers are logged with the charge withheld, it keeps serving, and stops cleanly', async () => {
    const { url, env, cli, key } = await teamOnFreshDatabase();
    await cli('account', 'create', 'other', '--balance', '1');
    const otherKey = (await cli('key', 'create', '--account', 'other', '--name', 'other-key')).trim();
    const [paused, spender] = [await serveProcess(['--database', url], env), await serveProcess(['--database', url], env)];
    started.push(paused!, spender!);
    const ask = (s: Served, secret: string, stream: boolean) => fetch(`${s.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-x', 'hello there', { max_tokens: 16, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) })),
    }).then(async (res) => ({ status: res.status, text: await res.text() }));

    // Streams in flight on one instance when it is paused: they settle only once it runs again.
    upstream.behaviour = { chunks: 6, chunkDelayMs: 150 };
    const streams = Array.from({ length: 8 }, () => ask(paused!, key, true));
    await poll('streams under way', async () => ((await sql(url, 'SELECT 1 FROM leases WHERE amount > 0')).length > 0 ? true : undefined), 10_000, 10);
    paused!.child.kill('SIGSTOP');
    try {
      await poll('the paused instance\'s lease reclaimed by the other', async () => ((await sql(url, 'SELECT 1 FROM leases')).length === 0 ? true : undefined), 20_000, 50);
      // The other instance spends what is left.
      upstream.behaviour = {};
      for (let i = 0; i < 200 && (await ask(spender!, key, false)).status === 200; i++);
    } finally {
      paused!.child.kill('SIGCONT');
    }
    const answered = (await Promise.all(streams)).filter((a) => a.status === 200 && a.text.includes('data: [DONE]')).length;
    assert.ok(answered > 0, 'the paused instance finished its streams');
    const m = await poll('every answer logged', async () => {
      const money = await moneyOf(url, 'team');
      return money.leased === 0 && (await sql(url, "SELECT 1 FROM request_logs WHERE error_code = 'charge_withheld'")).length > 0 ? money : undefined;
    }, 20_000, 50);
    assertMoneyRules(m, 'after the pause');
    assert.equal(2000 - m.balance, m.logged, 'the balance fell by exactly the logged charges');
    assert.match(paused!.output(), /account \d+ could not pay \$[0-9.]+ of \d+ answered request\(s\)/);
    // Not stuck: the paused instance serves another account at once.
    assert.equal((await ask(paused!, otherKey, false)).status, 200);
    paused!.child.kill('SIGTERM');
    spender!.child.kill('SIGTERM');
    assert.equal(await paused!.exited, 0, paused!.output());
    assert.equal(await spender!.exited, 0);
    assert.doesNotMatch(paused!.output(), /could not be written before stopping/);
    const [rows] = await sql(url, "SELECT count(*)::int AS n FROM request_logs WHERE key_name = 'team-key' AND status = 200");
    const after = await moneyOf(url, 'team');
    assert.equal(2000 - after.balance, after.logged);
    assert.ok((rows!['n'] as number) >= answered, 'every answer the paused instance sent has its row');
  });
});
