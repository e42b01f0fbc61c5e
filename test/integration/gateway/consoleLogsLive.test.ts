// The console's request logs beyond a page (issue 10), over real HTTP on a real SQLite file: a request found
// by its id (X-Request-Id), one request in full (its client, channel, upstream model, the reason in words),
// never another account's (404 as for none), and the live view: polling with `after` while requests are
// being made sees each of them exactly once. The admins' logs: every account, by account or user, CSV with
// the account; users refused.
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/contract/index.ts';
import { assertError } from '../../support/answer.ts';
import { adaAndBob, consoleAgent, type ConsoleAgent, signedInAdmin } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe('the console request logs: by request id, in full, live, and for admins', function () {
  this.timeout(60_000);
  let t: Started;
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  let root: ConsoleAgent;
  let adaKey: string;
  let bobKey: string;
  const chat = (key: string, model = 'echo', headers: Record<string, string> = {}) => call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody(model, 'hi'), headers });

  before(async () => {
    t = await startTestGateway();
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
    root = await signedInAdmin(t.gw, t.admin());
    adaKey = (await ada.post('/api/console/keys', { name: 'ada-1' })).json.secret;
    bobKey = (await bob.post('/api/console/keys', { name: 'bob-1' })).json.secret;
  });
  after(async () => t.close());

  it('request_id finds exactly that request, of the account only; a row says its error in the contract\'s words', async () => {
    const ok = await chat(adaKey);
    const refused = await chat(adaKey, 'no-such-model');
    assert.deepEqual([ok.status, refused.status], [200, 404]);
    const id = refused.headers.get('x-request-id')!;
    const found = await ada.get(`/api/console/account/logs?request_id=${id}`);
    assert.deepEqual(found.json.data.map((r: { request_id: string }) => r.request_id), [id]);
    assert.deepEqual([found.json.data[0].error_code, found.json.data[0].error_message], ['model_not_found', ERROR_CODES.model_not_found.message]);
    const other = (await ada.get(`/api/console/account/logs?request_id=${ok.headers.get('x-request-id')}`)).json.data[0];
    assert.deepEqual([other.status, other.error_code, other.error_message], [200, null, null]);
    assert.deepEqual((await bob.get(`/api/console/account/logs?request_id=${id}`)).json.data, [], "another account's request id finds nothing");
    assert.deepEqual((await ada.get(`/api/console/account/logs?request_id=${id.toLowerCase()}x`)).json.data, []);
    const csv = await fetch(`${t.gw.url}/api/console/account/logs?format=csv&request_id=${id}`, { headers: { cookie: `mg_session=${ada.cookie}` } });
    const lines = (await csv.text()).trimEnd().split('\r\n');
    assert.equal(lines.length, 2, 'the header and the one row');
    assert.equal(lines[1]!.split(',')[1], id);
  });

  it("one request in full: client, channel, upstream model, cap and attempts; another account's is 404 like none", async () => {
    const answer = await chat(adaKey, 'echo', { 'user-agent': 'dashlogs-test/1.0 (+https://example.test)' });
    const id = answer.headers.get('x-request-id')!;
    const row = (await ada.get(`/api/console/account/logs?request_id=${id}`)).json.data[0];
    const detail = await ada.get(`/api/console/account/logs/detail?id=${row.id}`);
    assert.equal(detail.status, 200, detail.text);
    const d = detail.json;
    assert.deepEqual(
      [d.object, d.id, d.request_id, d.account, d.key_name, d.model, d.upstream_model, d.channel, d.user_agent, d.client_ip, d.attempts, d.status],
      ['console.log', row.id, id, 'ada', 'ada-1', 'echo', 'echo', 'echo', 'dashlogs-test/1.0 (+https://example.test)', '127.0.0.1', [], 200],
    );
    assert.equal(d.cost.micro_usd, row.cost.micro_usd);
    assertError(await bob.get(`/api/console/account/logs/detail?id=${row.id}`), 404, 'log_not_found');
    assertError(await ada.get(`/api/console/account/logs/detail?id=${row.id + 100_000}`), 404, 'log_not_found');
    assertError(await ada.get('/api/console/account/logs/detail'), 400, 'invalid_request');
    assertError(await consoleAgent(t.gw).get(`/api/console/account/logs/detail?id=${row.id}`), 401, 'not_signed_in');
    const asAdmin = await root.get(`/api/console/admin/logs/detail?id=${row.id}`);
    assert.deepEqual(asAdmin.json, d, 'an admin reads the same record');
    assertError(await ada.get(`/api/console/admin/logs/detail?id=${row.id}`), 403, 'admin_required');
  });

  it('live: polling with after while requests are made sees every one of the account\'s exactly once, oldest first', async () => {
    const first = await ada.get('/api/console/account/logs?limit=5');
    let cursor: number = first.json.next_after;
    // At least the page's newest row; past it when later rows (bob's) are not the account's.
    assert.ok(cursor >= Math.max(...first.json.data.map((r: { id: number }) => r.id)), 'the first page says where to poll from');
    const none = (await ada.get('/api/console/account/logs?model=never-asked-for')).json;
    assert.deepEqual([none.data, none.next_after], [[], cursor], 'an empty page polls from the newest row written, not from the start');
    assert.equal((await ada.get(`/api/console/account/logs?limit=1&before=${cursor}`)).json.next_after, null, 'an older page is no place to poll from');
    const seen: { id: number; request_id: string }[] = [];
    let making = true;
    const pollOnce = async (): Promise<number> => {
      const page = await ada.get(`/api/console/account/logs?after=${cursor}&limit=7`);
      assert.equal(page.status, 200, page.text);
      const ids = page.json.data.map((r: { id: number }) => r.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'oldest first');
      assert.equal(page.json.next_before, null);
      seen.push(...page.json.data);
      assert.ok(page.json.next_after >= cursor);
      cursor = page.json.next_after;
      return page.json.data.length;
    };
    const polling = (async () => {
      while (making) {
        await pollOnce();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const made: string[] = [];
    for (let wave = 0; wave < 6; wave++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => chat(i % 3 === 0 ? bobKey : adaKey, i % 4 === 0 ? 'no-such-model' : 'echo')));
      answers.forEach((a, i) => { if (i % 3 !== 0) made.push(a.headers.get('x-request-id')!); });
    }
    making = false;
    await polling;
    while ((await pollOnce()) > 0);
    const ids = seen.map((r) => r.request_id);
    assert.equal(new Set(seen.map((r) => r.id)).size, seen.length, 'no row twice');
    assert.deepEqual([...ids].sort(), [...made].sort(), "every request of the account once, none of bob's");
  });

  it("admins: every account's rows, by account or user, with the same filters and CSV; unknown names are 404; users are refused", async () => {
    const all = await root.get('/api/console/admin/logs?limit=200');
    assert.equal(all.status, 200, all.text);
    const accounts = new Set(all.json.data.map((r: { account: string | null }) => r.account));
    assert.ok(accounts.has('ada') && accounts.has('bob'), [...accounts].join());
    const byAccount = (await root.get('/api/console/admin/logs?account=bob&limit=200')).json.data;
    assert.ok(byAccount.length > 0 && byAccount.every((r: { account: string }) => r.account === 'bob'));
    assert.deepEqual((await root.get('/api/console/admin/logs?user=bob&limit=200')).json.data, byAccount, "a user's rows are their account's");
    assert.deepEqual((await root.get('/api/console/admin/logs?user=bob&account=ada')).json.data, [], 'both: the rows of both, none');
    const errors = (await root.get('/api/console/admin/logs?account=ada&status=error&limit=200')).json.data;
    assert.ok(errors.length > 0 && errors.every((r: { status: number; account: string }) => r.status >= 400 && r.account === 'ada'));
    const one = byAccount[0];
    assert.deepEqual((await root.get(`/api/console/admin/logs?request_id=${one.request_id}`)).json.data, [one]);
    const newer = await root.get(`/api/console/admin/logs?after=${byAccount.at(-1).id}&account=bob&limit=200`);
    assert.deepEqual(newer.json.data.map((r: { id: number }) => r.id), byAccount.slice(0, -1).map((r: { id: number }) => r.id).reverse());
    const csv = await fetch(`${t.gw.url}/api/console/admin/logs?format=csv&account=bob`, { headers: { cookie: `mg_session=${root.cookie}` } });
    const lines = (await csv.text()).trimEnd().split('\r\n');
    assert.match(lines[0]!, /^time,account,request_id,key_name,/);
    assert.equal(lines.length, byAccount.length + 1);
    assert.ok(lines.slice(1).every((l) => l.split(',')[1] === 'bob'));
    assertError(await root.get('/api/console/admin/logs?account=nobody'), 404, 'account_not_found');
    assertError(await root.get('/api/console/admin/logs?user=nobody'), 404, 'user_not_found');
    for (const agent of [ada, bob]) assertError(await agent.get('/api/console/admin/logs'), 403, 'admin_required');
    assertError(await consoleAgent(t.gw).get('/api/console/admin/logs'), 401, 'not_signed_in');
  });
});
