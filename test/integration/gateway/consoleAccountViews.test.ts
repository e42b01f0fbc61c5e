// What a signed-in user sees beyond keys, over real HTTP (issue 10, contract 1.3): the model catalogue
// (exact names, kind, context, prices, tools; search) and their account's request logs (every key of
// theirs, never another account's; filters, paging, CSV). Bad input gets the contract's JSON error.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, consoleAgent, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe("a signed-in user's catalogue and logs", function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  const keys: Record<string, { id: number; secret: string }> = {};
  const chat = (secret: string, model = 'echo') => call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody(model, 'hello') });

  before(async () => {
    t = await startTestGateway();
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
    for (const [agent, name] of [[ada, 'ada-1'], [ada, 'ada-2'], [bob, 'bob-1']] as const) {
      const made = await agent.post('/api/console/keys', { name });
      assert.equal(made.status, 201, made.text);
      keys[name] = { id: made.json.key.id, secret: made.json.secret };
    }
    assert.equal((await chat(keys['ada-1']!.secret)).status, 200);
    assert.equal((await chat(keys['ada-2']!.secret)).status, 200);
    assert.equal((await chat(keys['ada-2']!.secret, 'no-such-model')).status, 404);
    assert.equal((await chat(keys['bob-1']!.secret)).status, 200);
  });
  after(async () => t.close());

  it("logs: every key of the account, newest first, never another account's", async () => {
    const answer = await ada.get('/api/console/account/logs');
    assert.equal(answer.status, 200, answer.text);
    const rows = answer.json.data as { id: number; key_name: string; model: string; status: number; error_code: string | null }[];
    assert.deepEqual(rows.map((r) => [r.key_name, r.model, r.status]), [['ada-2', 'no-such-model', 404], ['ada-2', 'echo', 200], ['ada-1', 'echo', 200]]);
    assert.ok(rows[0]!.id > rows[1]!.id && rows[1]!.id > rows[2]!.id);
    assert.equal(rows[0]!.error_code, 'model_not_found');
    assert.ok(!answer.text.includes('bob-1') && !answer.text.includes(keys['ada-1']!.secret), "no other account's row, no secret");
    assert.deepEqual((await bob.get('/api/console/account/logs')).json.data.map((r: { key_name: string }) => r.key_name), ['bob-1']);
  });

  it('logs: filters by key, model, status and time; pages with next_before', async () => {
    const names = async (query: string) => (await ada.get(`/api/console/account/logs?${query}`)).json.data.map((r: { key_name: string; status: number }) => `${r.key_name}:${r.status}`);
    assert.deepEqual(await names(`key=${keys['ada-1']!.id}`), ['ada-1:200']);
    assert.deepEqual(await names(`key=${keys['bob-1']!.id}`), [], "bob's key id filters to nothing");
    assert.deepEqual(await names('model=echo'), ['ada-2:200', 'ada-1:200']);
    assert.deepEqual(await names('status=error'), ['ada-2:404']);
    assert.deepEqual(await names('status=ok'), ['ada-2:200', 'ada-1:200']);
    assert.deepEqual(await names('since=2999-01-01'), []);
    assert.deepEqual(await names('until=2000-01-01T00:00:00Z'), []);
    const page1 = await ada.get('/api/console/account/logs?limit=2');
    assert.equal(page1.json.data.length, 2);
    assert.equal(page1.json.next_before, page1.json.data[1].id);
    const page2 = await ada.get(`/api/console/account/logs?limit=2&before=${page1.json.next_before}`);
    assert.deepEqual(page2.json.data.map((r: { key_name: string }) => r.key_name), ['ada-1']);
    assert.equal(page2.json.next_before, null);
  });

  it('logs: CSV export of the same rows, one header line; bad input is a JSON 400; no session is 401', async () => {
    const csv = await fetch(`${t.gw.url}/api/console/account/logs?format=csv&status=ok`, { headers: { cookie: `mg_session=${ada.cookie}` } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(csv.headers.get('content-disposition')!, /attachment/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    assert.equal(lines[0], 'time,request_id,key_name,model,path,status,error_code,prompt_tokens,completion_tokens,cost_usd,latency_ms,first_byte_ms,stream');
    assert.deepEqual(lines.slice(1).map((l) => l.split(',')[2]), ['ada-2', 'ada-1']);
    const one = await fetch(`${t.gw.url}/api/console/account/logs?format=csv&status=ok&limit=1`, { headers: { cookie: `mg_session=${ada.cookie}` } });
    assert.deepEqual((await one.text()).trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[2]), ['ada-2'], 'a limit given holds for the CSV too');
    // Days and times that do not exist are refused, not rolled over into the next month; a page goes one way.
    const impossible = ['until=2020-02-30', 'since=2021-02-29', 'until=2020-01-01T24:00:00Z', 'since=2020-13-01', 'before=5&after=1'];
    for (const query of ['status=maybe', 'limit=0', 'limit=201', 'key=abc', 'since=yesterday', 'format=xml', 'accountId=2', 'before=-1', ...impossible]) {
      assertError(await ada.get(`/api/console/account/logs?${query}`), 400, 'invalid_request');
    }
    assertError(await consoleAgent(t.gw).get('/api/console/account/logs'), 401, 'not_signed_in');
  });
  // Last: its refused request (q too long) is a row of ada's account's logs too.
  it('catalogue: every served model with exact name, kind, context, prices and tools; q searches names; signed-in only', async () => {
    const all = await ada.get('/api/console/models');
    assert.equal(all.status, 200, all.text);
    const names = all.json.data.map((m: { name: string }) => m.name);
    assert.deepEqual(names, ['echo', 'echo-completion', 'echo-embedding', 'echo-image']);
    const echo = all.json.data[0];
    assert.deepEqual([echo.kind, echo.context_length, echo.tool_calling, echo.image_input, echo.input_per_million.usd, echo.output_per_million.usd, echo.free], ['chat', 32_768, true, true, '2.00', '8.00', false]);
    const image = all.json.data[3];
    assert.deepEqual([image.kind, image.per_image.micro_usd], ['image', 40_000]);
    assert.ok(!all.text.includes('channel'), 'no channel is named');
    assert.deepEqual((await ada.get('/api/console/models?q=EMBED')).json.data.map((m: { name: string }) => m.name), ['echo-embedding']);
    assert.deepEqual((await ada.get('/api/console/models?q=nothing-like-it')).json.data, []);
    assertError(await ada.get(`/api/console/models?q=${'x'.repeat(257)}`), 400, 'invalid_request');
    assertError(await consoleAgent(t.gw).get('/api/console/models'), 401, 'not_signed_in');
  });

  it('catalogue: a model priced at zero throughout is said to be free', async () => {
    await addChannelPricedFree(t.admin(), newChannel({ name: 'gift', baseUrl: 'http://127.0.0.1:9', apiKey: 'upstream-secret', models: { 'on-the-house': 'on-the-house' } }));
    const found = await poll('the new channel served', async () =>
      (await ada.get('/api/console/models?q=on-the-house')).json.data[0], 5000, 25);
    assert.deepEqual([found.name, found.free, found.input_per_million.micro_usd, found.output_per_million.micro_usd], ['on-the-house', true, 0, 0]);
  });
});
