// The console's logs and dashboard on PostgreSQL with two gateway instances on one database (issue 10;
// docs/multi-instance.md), over real HTTP: requests spread over both instances at once while a live view
// polls with `after`, alternating between the instances, sees every request of its account exactly once;
// the dashboard's numbers, asked of either instance, are the sums of the account's log rows and the balance
// fell by exactly them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { openAnyStore } from '../../../src/gateway/store/index.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { consoleAgent, makeUser, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, tempDir } from './helpers.ts';

describe('the console logs and dashboard on PostgreSQL, two instances', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let instances: RunningGateway[];
  let store: Store;
  let ada: ConsoleAgent[];
  let adaKey: string;
  let bobKey: string;

  before(async () => {
    const url = await freshDatabase();
    const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
    const start = (bootstrap: boolean) => {
      const dir = tempDir();
      dirs.push(dir);
      return startGateway({ databaseUrl: url, env, dataDir: dir, port: 0, bootstrap, echoDelayMs: 0 });
    };
    // The first makes the echo channel and model; the second finds them.
    instances = [await start(true)];
    instances.push(await start(false));
    store = await openAnyStore({ databaseUrl: url, env });
    await makeUser(store, 'ada', 5_000_000);
    await makeUser(store, 'bob', 5_000_000);
    // One browser per instance, each signed in there: sessions live in the database.
    ada = instances.map((gw) => consoleAgent(gw));
    for (const agent of ada) assert.equal((await agent.signIn('ada')).status, 200);
    const bob = consoleAgent(instances[1]!);
    assert.equal((await bob.signIn('bob')).status, 200);
    adaKey = (await ada[0]!.post('/api/console/keys', { name: 'ada-1' })).json.secret;
    bobKey = (await bob.post('/api/console/keys', { name: 'bob-1' })).json.secret;
  });
  after(async () => {
    for (const gw of instances ?? []) await gw.stop();
    await store?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a live view polling either instance with after sees every request of the account exactly once while both serve', async () => {
    let cursor: number = (await ada[0]!.get('/api/console/account/logs?limit=1')).json.next_after;
    const seen: { id: number; request_id: string }[] = [];
    let polls = 0;
    const pollOnce = async (): Promise<number> => {
      const page = await ada[polls++ % 2]!.get(`/api/console/account/logs?after=${cursor}&limit=9`);
      assert.equal(page.status, 200, page.text);
      seen.push(...page.json.data);
      cursor = page.json.next_after;
      return page.json.data.length;
    };
    let making = true;
    const polling = (async () => {
      while (making) await pollOnce();
    })();
    const made: string[] = [];
    for (let wave = 0; wave < 8; wave++) {
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => {
        const gw = instances[i % 2]!;
        return call(gw, 'POST', '/v1/chat/completions', { key: i % 5 === 0 ? bobKey : adaKey, body: chatBody(i % 7 === 0 ? 'no-such-model' : 'echo', `wave ${wave}`) });
      }));
      answers.forEach((a, i) => { if (i % 5 !== 0) made.push(a.headers.get('x-request-id')!); });
    }
    making = false;
    await polling;
    // Each instance writes its logs in batches: poll until both have written theirs.
    for (let quiet = 0; quiet < 3;) quiet = (await pollOnce()) === 0 ? quiet + 1 : 0;
    assert.ok(polls > 3, `polled ${polls} times`);
    assert.equal(new Set(seen.map((r) => r.id)).size, seen.length, 'no row twice');
    assert.deepEqual(seen.map((r) => r.request_id).sort(), [...made].sort(), "every request of ada's once, none of bob's");
  });

  it("the dashboard, asked of either instance, is the sum of the account's rows; the balance fell by exactly that", async () => {
    const rows = (await ada[1]!.get('/api/console/account/logs?limit=200')).json.data as { status: number; cost: { micro_usd: number } }[];
    const cost = rows.reduce((n, r) => n + r.cost.micro_usd, 0);
    for (const agent of ada) {
      const d = (await agent.get('/api/console/dashboard?range=30d')).json;
      assert.deepEqual([d.totals.requests, d.totals.errors, d.totals.cost.micro_usd], [rows.length, rows.filter((r) => r.status >= 400).length, cost]);
      assert.ok(cost > 0);
      assert.equal(d.balance.used.micro_usd, cost);
      assert.equal(d.balance.remaining.micro_usd, 5_000_000 - cost);
    }
    const account = (await store.getAccount('ada'))!;
    assert.deepEqual([account.balance, account.totalSpent], [5_000_000 - cost, cost], 'in the database too');
  });
});
