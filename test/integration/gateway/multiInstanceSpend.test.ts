// A key's spending limit across two `model-gateway serve --database URL` processes on one PostgreSQL database
// (issue 10; docs/multi-instance.md, "Keys' own limits across instances"). Each instance counts its own
// charges at once and re-reads the others' every second: requests paced slower than that, alternating between
// the instances, spend exactly the limit; a burst that reaches both at once overshoots by at most what the
// other instance admitted before it could know (each alone never passes the limit, so at most twice it here),
// and within the tolerance's second both refuse. The account's logs add up to its balance exactly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { chatBody } from './helpers.ts';
import { ROOT, startInstances, type Instances, type Served } from './serveProcess.ts';

// Output at $1 per million tokens, input free; max_tokens 100 reserves 100 micro-USD and the upstream's usage
// (100 completion tokens) charges exactly that: a limit of $0.0004 is four requests.
const USAGE = { usage: { prompt_tokens: 5, completion_tokens: 100 } } as const;

describe("several serve --database instances on one PostgreSQL database: a key's spending limit", function () {
  this.timeout(120_000);
  let instances: Instances;
  let upstream: FakeUpstream;
  let url: string;
  let started: Served[];
  const cli = (...args: string[]): Promise<string> => instances.cli(...args);
  const sql = async (text: string): Promise<Array<Record<string, string>>> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  const ask = async (instance: number, key: string): Promise<{ status: number; code: string | null }> => {
    const res = await fetch(`${started[instance]!.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('metered', 'hello', { max_tokens: 100 })),
    });
    const text = await res.text();
    return { status: res.status, code: res.status === 200 ? null : ((JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null) };
  };
  const spentBy = async (name: string): Promise<number> => Number((await sql(`SELECT COALESCE(SUM(cost), 0)::text AS c FROM request_logs WHERE key_name = '${name}'`))[0]!.c);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  before(() => execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT }));
  before(async () => {
    instances = await startInstances(2, 'metered', '0', '1', USAGE);
    ({ upstream, url, started } = instances);
  });
  after(async () => instances?.stop());

  it('paced slower than the re-read, alternating between the instances: exactly the limit is spent, then both refuse', async () => {
    const key = (await cli('key', 'create', '--account', 'team', '--name', 'paced', '--spend-limit', '0.0004')).trim();
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { status, code } = await ask(i % 2, key);
      outcomes.push(`${i % 2}:${status}${code ? ` ${code}` : ''}`);
      await sleep(1300); // one re-read (1 s) and the log batch later, the other instance knows this charge
    }
    assert.deepEqual(outcomes, ['0:200', '1:200', '0:200', '1:200', '0:403 key_spend_limit_reached', '1:403 key_spend_limit_reached']);
    assert.equal(await spentBy('paced'), 400);
  });

  it('a burst on both at once overshoots by at most what the other admitted unseen (here at most the limit again), and within a second both refuse', async () => {
    upstream.behaviour = { ...USAGE, headersDelayMs: 300 };
    const key = (await cli('key', 'create', '--account', 'team', '--name', 'burst', '--spend-limit', '0.0004')).trim();
    const balanceBefore = Number((await sql("SELECT balance::text AS b FROM accounts WHERE name = 'team'"))[0]!.b);
    const spentBefore = Number((await sql("SELECT COALESCE(SUM(cost), 0)::text AS c FROM request_logs l JOIN accounts a ON a.id = l.account_id WHERE a.name = 'team'"))[0]!.c);
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(i % 2, key)));
    const served = outcomes.filter((o) => o.status === 200).length;
    assert.deepEqual([...new Set(outcomes.filter((o) => o.status !== 200).map((o) => `${o.status} ${o.code}`))], ['403 key_spend_limit_reached']);
    assert.ok(served >= 4 && served <= 8, `served ${served}: each instance alone at most the limit (4)`);
    console.log(`      a burst of 20 over 2 instances on a limit of 4 requests: ${served} served`);
    upstream.behaviour = USAGE;
    await sleep(1300);
    assert.deepEqual([await ask(0, key), await ask(1, key)].map((o) => o.code), ['key_spend_limit_reached', 'key_spend_limit_reached']);
    assert.equal(await spentBy('burst'), served * 100);
    // Money: the account's logs add up to what left its balance, to the micro-dollar.
    const balanceAfter = Number((await sql("SELECT balance::text AS b FROM accounts WHERE name = 'team'"))[0]!.b);
    const spentAfter = Number((await sql("SELECT COALESCE(SUM(cost), 0)::text AS c FROM request_logs l JOIN accounts a ON a.id = l.account_id WHERE a.name = 'team'"))[0]!.c);
    assert.equal(balanceBefore - balanceAfter, spentAfter - spentBefore);
    const usage = await sql("SELECT SUM(u.spent)::text AS s FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.name = 'burst'");
    assert.equal(Number(usage[0]!.s), served * 100, 'key_usage holds every charge, from both instances');
  });
});
