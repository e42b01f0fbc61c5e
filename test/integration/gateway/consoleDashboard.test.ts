// The console's dashboards over real HTTP on a real SQLite file (issue 10): a signed-in user's account
// (GET /api/console/dashboard) and the whole gateway for admins (GET /api/console/admin/dashboard). Their
// numbers are the sums of the request log rows the logs pages list, bucket by bucket, and the balance falls
// by exactly what they say was spent; a user sees only their own account; the admins' routes refuse users.
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/contract/index.ts';
import { assertError } from '../../support/answer.ts';
import { adaAndBob, consoleAgent, type ConsoleAgent, signedInAdmin } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

interface Row { time: string; model: string | null; status: number; error_code: string | null; cost: { micro_usd: number }; prompt_tokens: number; completion_tokens: number; account?: string | null }

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The usage the dashboard must show for `rows`. */
function sums(rows: readonly Row[]) {
  return {
    requests: rows.length, errors: rows.filter((r) => r.status >= 400).length, cost: rows.reduce((n, r) => n + r.cost.micro_usd, 0),
    prompt_tokens: rows.reduce((n, r) => n + r.prompt_tokens, 0), completion_tokens: rows.reduce((n, r) => n + r.completion_tokens, 0),
  };
}
const usageOf = (u: { requests: number; errors: number; cost: { micro_usd: number }; prompt_tokens: number; completion_tokens: number }) =>
  ({ requests: u.requests, errors: u.errors, cost: u.cost.micro_usd, prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens });

describe('the console dashboards over HTTP', function () {
  this.timeout(60_000);
  let t: Started;
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  let root: ConsoleAgent;

  before(async () => {
    t = await startTestGateway();
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
    root = await signedInAdmin(t.gw, t.admin());
    const keyOf = async (agent: ConsoleAgent, name: string): Promise<string> => (await agent.post('/api/console/keys', { name })).json.secret;
    const [ada1, ada2, bob1] = [await keyOf(ada, 'ada-1'), await keyOf(ada, 'ada-2'), await keyOf(bob, 'bob-1')];
    const chat = (key: string, model = 'echo', content = 'hello', extra = {}) => call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody(model, content, extra) });
    const answers = await Promise.all([
      chat(ada1), chat(ada1, 'echo', 'a longer question for a longer answer'), chat(ada2, 'echo', 'streamed', { stream: true }),
      chat(ada2, 'no-such-model'), chat(ada2, 'no-such-model'), chat(bob1), chat(bob1, 'echo', 'bob again'),
    ]);
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 404, 404, 200, 200]);
  });
  after(async () => t.close());

  const rowsOf = async (agent: ConsoleAgent, path: string): Promise<Row[]> => {
    const answer = await agent.get(`${path}?limit=200`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data;
  };

  it("a user's dashboard: every number is the sum of the account's log rows, bucket by bucket; the balance fell by what was spent", async () => {
    const dash = await ada.get('/api/console/dashboard');
    assert.equal(dash.status, 200, dash.text);
    const rows = await rowsOf(ada, '/api/console/account/logs');
    const d = dash.json;
    assert.deepEqual([d.object, d.account, d.range, d.bucket_seconds, d.series.length], ['console.dashboard', 'ada', '24h', 3600, 24]);
    assert.deepEqual(usageOf(d.totals), sums(rows));
    assert.ok(d.totals.cost.micro_usd > 0 && d.totals.errors === 2, dash.text);
    // Every bucket holds exactly the rows of its hour.
    for (const bucket of d.series) {
      const start = Date.parse(bucket.start);
      assert.deepEqual(usageOf(bucket), sums(rows.filter((r) => Date.parse(r.time) >= start && Date.parse(r.time) < start + HOUR)), bucket.start);
    }
    assert.equal(Date.parse(d.to) - Date.parse(d.from), DAY);
    assert.ok(Date.parse(d.to) > Date.now() - 5_000 && Date.parse(d.to) <= Date.now() + HOUR, 'the range ends with the current hour');
    assert.equal(d.balance.used.micro_usd, d.totals.cost.micro_usd);
    assert.equal(d.balance.remaining.micro_usd, 5_000_000 - d.totals.cost.micro_usd, 'the balance fell by exactly the logged charges');
    const today = Math.floor((Date.parse(d.to) - 1) / DAY) * DAY;
    assert.equal(d.spent.today.micro_usd, sums(rows.filter((r) => Date.parse(r.time) >= today)).cost);
    const end = new Date(Date.parse(d.to) - 1);
    assert.equal(d.spent.month.micro_usd, sums(rows.filter((r) => Date.parse(r.time) >= Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1))).cost);
    const echo = rows.filter((r) => r.model === 'echo');
    assert.deepEqual(d.by_model.map((m: { model: string }) => m.model), ['echo', 'no-such-model']);
    assert.deepEqual(usageOf(d.by_model[0]), sums(echo));
    assert.equal(d.other_models, null);
    assert.deepEqual(d.errors, [{ code: 'model_not_found', status: 404, count: 2, message: ERROR_CODES.model_not_found.message }]);
    assert.equal(d.latency.requests, echo.filter((r) => r.status < 400).length);
    assert.ok(Number.isInteger(d.latency.p50_ms) && d.latency.p95_ms >= d.latency.p50_ms, dash.text);
  });

  it('7 and 30 days: UTC days, today last, the same totals; a bad range is 400', async () => {
    const day = (await ada.get('/api/console/dashboard?range=24h')).json;
    for (const [range, days] of [['7d', 7], ['30d', 30]] as const) {
      const d = (await ada.get(`/api/console/dashboard?range=${range}`)).json;
      assert.deepEqual([d.range, d.bucket_seconds, d.series.length], [range, 86_400, days]);
      assert.equal(Date.parse(d.series[0].start) % DAY, 0, 'buckets start at 00:00 UTC');
      assert.equal(Date.parse(d.to), Date.parse(d.series.at(-1).start) + DAY);
      assert.deepEqual(usageOf(d.totals), usageOf(day.totals));
    }
    assertError(await ada.get('/api/console/dashboard?range=1y'), 400, 'invalid_request');
    assertError(await consoleAgent(t.gw).get('/api/console/dashboard'), 401, 'not_signed_in');
  });

  it("a user never sees another account's numbers", async () => {
    const d = (await bob.get('/api/console/dashboard')).json;
    const rows = await rowsOf(bob, '/api/console/account/logs');
    assert.deepEqual(usageOf(d.totals), sums(rows));
    assert.deepEqual([d.account, d.totals.requests, d.errors], ['bob', 2, []]);
    assert.ok(rows.every((r) => !JSON.stringify(r).includes('ada')));
  });

  it("the whole gateway's dashboard for admins: every account's rows, the accounts that spent most, counts; users are refused", async () => {
    const answer = await root.get('/api/console/admin/dashboard?range=7d');
    assert.equal(answer.status, 200, answer.text);
    const d = answer.json;
    const all = (await rowsOf(root, '/api/console/admin/logs')).filter((r) => r.account !== null);
    assert.deepEqual([d.object, d.account], ['console.gateway_dashboard', null]);
    assert.deepEqual(usageOf(d.totals), sums(all));
    const byAccount = (name: string) => sums(all.filter((r) => r.account === name));
    assert.deepEqual(d.top_accounts.map((a: { account: string }) => a.account), ['ada', 'bob'].sort((x, y) => byAccount(y).cost - byAccount(x).cost));
    for (const a of d.top_accounts) assert.deepEqual(usageOf(a), byAccount(a.account));
    assert.deepEqual(d.counts, { users: 3, accounts: 4, keys: 4, channels: 1 }, 'ada, bob, root; their accounts and local; three keys and default; echo');
    assert.equal(d.balance.remaining.micro_usd, 20_000_000 - d.totals.cost.micro_usd, "local's $10, ada's and bob's $5 each, less what they spent");
    assert.equal(d.balance.used.micro_usd, d.totals.cost.micro_usd);
    for (const agent of [ada, bob]) assertError(await agent.get('/api/console/admin/dashboard'), 403, 'admin_required');
    assertError(await consoleAgent(t.gw).get('/api/console/admin/dashboard'), 401, 'not_signed_in');
  });
});
