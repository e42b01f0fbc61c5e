// The admins' channels and prices over real HTTP on a real SQLite file (issue 10, contract 4.10 "Admins"):
// an admin adds a channel to a fake upstream, prices its model, and a key's request through the official
// openai SDK then succeeds; an edited base URL takes the next request to the new upstream (the key kept
// unless a new one is given); a disabled channel's model is 503 upstream_unavailable; the test endpoint
// answers what the upstream did, with the relay's code on failure; a deleted channel serves nothing. On
// PostgreSQL the same changes made on one instance reach another within a second.
import assert from 'node:assert/strict';
import OpenAI, { InternalServerError, PermissionDeniedError } from 'openai';
import { createKey } from '../../../src/gateway/admin.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { assertError } from '../../support/answer.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { onFreshDatabase } from '../../support/postgresGateways.ts';
import { consoleAgent, makeUser, type ConsoleAgent } from './consoleAgent.ts';
import { useAdminGateway, type Started } from './helpers.ts';

const SECRET = 'sk-upstream-first-secret-0123456789';
const NEW_SECRET = 'sk-upstream-second-secret-9876543210';
const messages = [{ role: 'user' as const, content: 'hello' }];

const sdk = (gw: RunningGateway, key: string) => new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });

describe("the admins' channels and prices over HTTP", function () {
  this.timeout(60_000);
  const suite = useAdminGateway();
  let t: Started;
  let root: ConsoleAgent;
  let a: FakeUpstream;
  let b: FakeUpstream;
  let client: OpenAI;

  before(async () => {
    ({ t, a, b, openai: client } = suite);
    root = consoleAgent(t.gw);
    assert.equal((await root.signIn('root')).status, 200);
  });

  const channels = async () => (await root.get('/api/console/admin/channels')).json.data as Array<Record<string, any>>;
  const ask = () => client.chat.completions.create({ model: 'team-model', messages });

  it('adds a channel (no key in the answer), which serves nothing until priced; priced, the SDK request goes to its upstream with its key', async () => {
    const added = await root.post('/api/console/admin/channels', { name: 'up', base_url: a.url, api_key: SECRET, models: { 'team-model': 'upstream-a-model' }, timeout_ms: 5000 });
    assert.equal(added.status, 201, added.text);
    const { channel } = added.json;
    assert.deepEqual(
      [channel.name, channel.type, channel.base_url, channel.models, channel.priority, channel.weight, channel.timeout_ms, channel.proxy, channel.status, channel.api_key],
      ['up', 'openai', a.url, { 'team-model': 'upstream-a-model' }, 0, 1, 5000, null, 'enabled', { set: true, last4: SECRET.slice(-4) }],
    );
    assert.deepEqual(added.json.unpriced, ['team-model'], 'the answer says what to price');
    assert.ok(!added.text.includes(SECRET));
    await assert.rejects(ask(), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'model_not_priced');

    const listed = (await root.get('/api/console/admin/models?q=TEAM')).json.data;
    assert.deepEqual(listed.map((m: { name: string; priced: boolean; channels: string[]; served: boolean }) => [m.name, m.priced, m.channels, m.served]), [['team-model', false, ['up'], true]]);
    const priced = await root.post('/api/console/admin/models/price', { model: 'team-model', input_usd: '1.5', output_usd: 2 });
    assert.equal(priced.status, 200, priced.text);
    assert.deepEqual(
      [priced.json.model.priced, priced.json.model.kind, priced.json.model.input_per_million, priced.json.model.output_per_million, priced.json.model.free],
      [true, 'chat', { micro_usd: 1_500_000, usd: '1.50' }, { micro_usd: 2_000_000, usd: '2.00' }, false],
    );

    const answer = await ask();
    assert.equal(answer.choices[0]!.message.content, 'w1 w2 w3');
    const sent = a.requests.at(-1)!;
    assert.deepEqual([sent.path, sent.body.model, sent.headers.authorization], ['/v1/chat/completions', 'upstream-a-model', `Bearer ${SECRET}`]);
  });

  it('edits the base URL: the next request goes to the new upstream with the same key; a new key replaces it; no key given keeps it', async () => {
    const before = a.requests.length;
    const moved = await root.post('/api/console/admin/channels/update', { name: 'up', base_url: b.url, priority: 2 });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual([moved.json.channel.base_url, moved.json.channel.priority, moved.json.channel.api_key.set], [b.url, 2, true]);
    await ask();
    assert.equal(a.requests.length, before, 'the old upstream got nothing');
    assert.equal(b.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`, 'the key was kept');

    const rekeyed = await root.post('/api/console/admin/channels/update', { name: 'up', api_key: NEW_SECRET });
    assert.deepEqual(rekeyed.json.channel.api_key, { set: true, last4: NEW_SECRET.slice(-4) });
    await ask();
    assert.equal(b.requests.at(-1)!.headers.authorization, `Bearer ${NEW_SECRET}`);
    const mapped = await root.post('/api/console/admin/channels/update', { name: 'up', models: { 'team-model': 'upstream-b-model', extra: 'extra' } });
    assert.deepEqual(mapped.json.channel.models, { 'team-model': 'upstream-b-model', extra: 'extra' });
    await ask();
    assert.equal(b.requests.at(-1)!.body.model, 'upstream-b-model');
  });

  it('disables: the next request is 503 upstream_unavailable; enabled again, it is served', async () => {
    const off = await root.post('/api/console/admin/channels/disable', { name: 'up' });
    assert.equal(off.json.channel.status, 'disabled');
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.status === 503 && e.code === 'upstream_unavailable');
    assert.equal((await root.get('/api/console/admin/models?q=team-model')).json.data[0].served, false, 'listed, not served');
    const on = await root.post('/api/console/admin/channels/enable', { name: 'up' });
    assert.equal(on.json.channel.status, 'enabled');
    assert.equal((await ask()).choices[0]!.message.content, 'w1 w2 w3');
  });

  it('lists each channel with its health from the request logs: served and failed answers, the last failure', async () => {
    b.behaviour = { status: 500 };
    await assert.rejects(ask(), (e: unknown) => e instanceof OpenAI.APIError && e.status === 502);
    b.behaviour = {};
    const up = (await channels()).find((c) => c.name === 'up')!;
    assert.ok(up.health.served >= 4, JSON.stringify(up.health));
    assert.equal(up.health.failed, 1);
    assert.match(up.health.last_failure, /upstream_error \(upstream HTTP 500: fake upstream error 500\)/);
    assert.equal(up.health.failures_in_a_row, 1, "this instance's failover memory");
    assert.equal(up.health.cooling_down_until, null);
  });

  it('tests a channel with a real upstream request: success, a refused key, a rate limit, no answer in time, nothing listening', async () => {
    const test = async (body: object) => {
      const answer = await root.post('/api/console/admin/channels/test', body);
      assert.equal(answer.status, 200, answer.text);
      return answer.json;
    };
    const ok = await test({ name: 'up' });
    assert.deepEqual([ok.object, ok.ok, ok.status, ok.error_code, ok.model, ok.upstream_model], ['console.channel_test', true, 200, null, 'team-model', 'upstream-b-model']);
    assert.ok(Number.isInteger(ok.latency_ms) && ok.latency_ms >= 0);
    assert.match(ok.message, /^OK 200 in \d+ ms: up -> http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.deepEqual([b.requests.at(-1)!.body.max_tokens, b.requests.at(-1)!.headers.authorization], [1, `Bearer ${NEW_SECRET}`]);
    assert.equal((await test({ name: 'up', model: 'extra' })).upstream_model, 'extra');

    b.behaviour = { status: 401, errorMessage: `Incorrect API key provided: ${NEW_SECRET}` };
    const refused = await test({ name: 'up' });
    assert.deepEqual([refused.ok, refused.status, refused.error_code], [false, 401, 'upstream_error']);
    assert.match(refused.message, /Incorrect API key provided/);
    assert.ok(!JSON.stringify(refused).includes(NEW_SECRET), 'the key is redacted from the upstream words');
    b.behaviour = { status: 429 };
    assert.deepEqual([(await test({ name: 'up' })).error_code], ['upstream_rate_limited']);
    b.behaviour = { hang: 'headers' };
    await root.post('/api/console/admin/channels/update', { name: 'up', timeout_ms: 300 });
    const slow = await test({ name: 'up' });
    assert.deepEqual([slow.ok, slow.status, slow.error_code], [false, null, 'upstream_timeout']);
    b.behaviour = {};
    await root.post('/api/console/admin/channels/update', { name: 'up', timeout_ms: 5000 });

    assert.equal((await root.post('/api/console/admin/channels', { name: 'nowhere', base_url: 'http://127.0.0.1:9/v1', models: { n: 'n' } })).status, 201);
    const gone = await test({ name: 'nowhere' });
    assert.deepEqual([gone.ok, gone.status, gone.error_code], [false, null, 'upstream_unavailable']);
    assert.match(gone.message, /ECONNREFUSED/);
    assertError(await root.post('/api/console/admin/channels/test', { name: 'nobody' }), 404, 'channel_not_found');
  });

  it('deletes a channel: gone from the list, its priced model 503 upstream_unavailable; deleting again is 404', async () => {
    const deleted = await root.post('/api/console/admin/channels/delete', { name: 'up' });
    assert.deepEqual(deleted.json, { object: 'console.channel_deleted', name: 'up' });
    assert.deepEqual((await channels()).map((c) => c.name), ['echo', 'nowhere'], 'the bootstrap echo channel and the one left');
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable');
    assertError(await root.post('/api/console/admin/channels/delete', { name: 'up' }), 404, 'channel_not_found');
    assertError(await root.post('/api/console/admin/channels/update', { name: 'up', priority: 1 }), 404, 'channel_not_found');
    assertError(await root.post('/api/console/admin/channels/enable', { name: 'up' }), 404, 'channel_not_found');
  });

  it("records every change in the audit log under the admin's name, with the settings and never a key", async () => {
    const rows = (await root.get('/api/console/admin/audit?actor=root&limit=200')).json.data as Array<{ action: string; target: string; details: any }>;
    const changes = rows.filter((r) => r.action.startsWith('channel.') || r.action === 'model.price').map((r) => [r.action, r.target]).reverse();
    assert.deepEqual(changes, [
      ['channel.add', 'up'], ['model.price', 'team-model'], ['channel.update', 'up'], ['channel.update', 'up'], ['channel.update', 'up'],
      ['channel.disable', 'up'], ['channel.enable', 'up'], ['channel.update', 'up'], ['channel.update', 'up'], ['channel.add', 'nowhere'], ['channel.remove', 'up'],
    ]);
    const add = rows.find((r) => r.action === 'channel.add' && r.target === 'up')!;
    assert.deepEqual([add.details.baseUrl, add.details.models, add.details.upstream_key], [a.url, { 'team-model': 'upstream-a-model' }, 'set']);
    const updates = rows.filter((r) => r.action === 'channel.update').reverse().map((r) => r.details);
    assert.deepEqual(updates.slice(0, 2), [{ baseUrl: b.url, priority: 2 }, { upstream_key: 'replaced' }]);
    const price = rows.find((r) => r.action === 'model.price')!;
    assert.deepEqual([price.details.inputPrice, price.details.outputPrice, price.details.free], [1_500_000, 2_000_000, false]);
  });

  it('shows a base URL\'s query values and a proxy\'s password masked; an edit that sends the masks back keeps the secrets they hide', async () => {
    const added = await root.post('/api/console/admin/channels', {
      name: 'query-secret', base_url: `${a.url}?key=QSECRET-1234`, proxy: 'http://proxyuser:PROXYPASS-99@127.0.0.1:3128', api_key: SECRET, models: { qm: 'qm' },
    });
    assert.equal(added.status, 201, added.text);
    assert.deepEqual([added.json.channel.base_url, added.json.channel.proxy], [`${a.url}?key=****`, 'http://proxyuser:****@127.0.0.1:3128/']);
    assert.doesNotMatch(JSON.stringify(await channels()), /QSECRET-1234|PROXYPASS-99/);
    // The form sends the URLs as it showed them, with one part changed.
    const edited = await root.post('/api/console/admin/channels/update', { name: 'query-secret', base_url: `${a.url.replace(/\/v1$/, '/v2')}?key=****`, proxy: 'http://proxyuser:****@127.0.0.1:3129' });
    assert.equal(edited.status, 200, edited.text);
    const stored = (await t.admin().listChannels()).find((c) => c.name === 'query-secret')!;
    assert.equal(stored.baseUrl, `${a.url.replace(/\/v1$/, '/v2')}?key=QSECRET-1234`);
    assert.equal(stored.proxy, 'http://proxyuser:PROXYPASS-99@127.0.0.1:3129/');
    const audit = await t.admin().listAudit({ limit: 5, actor: 'root' });
    assert.doesNotMatch(JSON.stringify(audit), /QSECRET-1234|PROXYPASS-99/, 'nor in the audit log');
    assert.equal((await root.post('/api/console/admin/channels/delete', { name: 'query-secret' })).status, 200);
  });
});

describe('on PostgreSQL: an admin on one instance changes channels and prices, another serves from them within a second', function () {
  this.timeout(60_000);
  let one: RunningGateway;
  let two: RunningGateway;
  let store: Store;
  let a: FakeUpstream;
  let b: FakeUpstream;

  before(async () => {
    const database = await onFreshDatabase();
    store = database.store;
    one = await database.start();
    two = await database.start();
    [a, b] = await Promise.all([startFakeUpstream({}), startFakeUpstream({})]);
  });
  after(async () => {
    await one?.stop();
    await two?.stop();
    await store?.close();
    await a?.close();
    await b?.close();
  });

  it('adds and prices on one, the other serves; an edited base URL and a disable reach the other too', async () => {
    await makeUser(store, 'root', 0, true);
    await makeUser(store, 'team', 5_000_000);
    const { secret } = await createKey(store, { account: 'team', name: 'team-key' });
    const onTwo = sdk(two, secret);
    const ask = () => onTwo.chat.completions.create({ model: 'pg-model', messages });
    const root = consoleAgent(one);
    assert.equal((await root.signIn('root')).status, 200);

    assert.equal((await root.post('/api/console/admin/channels', { name: 'pg-up', base_url: a.url, api_key: SECRET, models: { 'pg-model': 'pg-model' } })).status, 201);
    assert.equal((await root.post('/api/console/admin/models/price', { model: 'pg-model', free: true })).status, 200);
    const within = (what: string, probe: () => Promise<boolean>) => poll(what, async () => (await probe().catch(() => false)) || undefined, 1000, 20);
    await within('the other instance serving the new channel', async () => (await ask()).choices.length === 1);
    assert.equal(a.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`, 'the key, sealed in the database, opened on the other instance');

    assert.equal((await root.post('/api/console/admin/channels/update', { name: 'pg-up', base_url: b.url })).status, 200);
    await within('the other instance using the new base URL', async () => (await ask()) && b.requests.length > 0);
    assert.equal((await root.post('/api/console/admin/channels/disable', { name: 'pg-up' })).status, 200);
    await within('the other instance refusing the disabled channel', () => ask().then(() => false, (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable'));
    const audit = await store.listAudit({ limit: 10, actor: 'root' });
    assert.deepEqual(audit.map((r) => r.action).reverse(), ['channel.add', 'model.price', 'channel.update', 'channel.disable']);
  });
});
