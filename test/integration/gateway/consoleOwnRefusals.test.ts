// The console's own refused requests are not an account's requests (contract 4.10: the Logs view holds the
// requests of every key of the user's account), over real HTTP: a signed-in user's refused management
// requests (a bad key name 400, a name taken 409, a dashboard range that does not exist 400) are logged
// without the account, so the user's Logs and Dashboard show only their keys' requests (no error counted,
// no "(no model)" bar), while the admins' all-logs view still holds those refusals.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, signedInAdmin, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe("the console's own refusals stay out of the user's logs and dashboard", function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  let root: ConsoleAgent;
  const refusals: string[] = [];

  before(async () => {
    t = await startTestGateway();
    ({ ada } = await adaAndBob(t.gw, t.admin()));
    root = await signedInAdmin(t.gw, t.admin());
    const made = await ada.post('/api/console/keys', { name: 'laptop' });
    assert.equal(made.status, 201, made.text);
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: made.json.secret, body: chatBody('echo', 'hi') })).status, 200);

    for (const answer of [
      await ada.post('/api/console/keys', { name: 'has spaces in it' }),
      await ada.post('/api/console/keys', { name: 'laptop' }),
      await ada.get('/api/console/dashboard?range=1y'),
    ]) {
      assert.ok(answer.status >= 400, answer.text);
      refusals.push(answer.headers.get('x-request-id')!);
    }
  });
  after(async () => t.close());

  it("the admins' all-logs view holds the refusals, with no account", async () => {
    const rows = await poll('the refusals logged', async () => {
      const all = (await root.get('/api/console/admin/logs?limit=200')).json.data as { request_id: string; status: number; error_code: string; account?: string | null }[];
      const found = all.filter((r) => refusals.includes(r.request_id));
      return found.length === refusals.length ? found : undefined;
    }, 5000, 25);
    assert.deepEqual(rows.map((r) => [r.status, r.error_code]).sort(), [[400, 'invalid_request'], [400, 'invalid_request'], [409, 'key_name_taken']]);
    for (const row of rows) assert.ok(row.account === null || row.account === undefined, JSON.stringify(row));
  });

  it("the user's logs hold only the key's request", async () => {
    const rows = (await ada.get('/api/console/account/logs')).json.data as { request_id: string; key_name: string; status: number }[];
    assert.deepEqual(rows.map((r) => [r.key_name, r.status]), [['laptop', 200]]);
    assert.ok(!rows.some((r) => refusals.includes(r.request_id)));
    for (const id of refusals) assert.deepEqual((await ada.get(`/api/console/account/logs?request_id=${id}`)).json.data, []);
  });

  it("the user's dashboard counts no error, no error reason and no model-less spending", async () => {
    const d = (await ada.get('/api/console/dashboard')).json;
    assert.deepEqual([d.totals.requests, d.totals.errors, d.errors], [1, 0, []]);
    assert.deepEqual(d.by_model.map((m: { model: string | null }) => m.model), ['echo']);
    assertError(await ada.get('/api/console/dashboard?range=1y'), 400, 'invalid_request');
  });
});
