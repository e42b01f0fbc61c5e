// A signed-in user's own API keys over real HTTP (issue 10, contract 5.2): created with the secret shown
// once and working at once on /v1, listed without it, disabled, enabled, rotated (the old secret
// refused), deleted; another account's keys are neither seen nor touched (404 as for no key at all);
// and no secret, password or session id ever lands in a request log row.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, consoleAgent, PASSWORD, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe('console keys of a signed-in user', function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  const secrets: string[] = [];
  before(async () => {
    t = await startTestGateway();
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
  });
  after(async () => t.close());

  const chat = (secret: string) => call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo', 'from the console key') });

  it('creates a key: the secret once, with snippets; it works at once on /v1/chat/completions; the list never shows it', async () => {
    const made = await ada.post('/api/console/keys', { name: 'ada-laptop', models: ['echo'], rpm: 30, concurrency: 3 });
    assert.equal(made.status, 201, made.text);
    const { secret, key, snippets } = made.json;
    secrets.push(secret);
    assert.match(secret, /^sk-[A-Za-z0-9_-]{43}$/);
    assert.equal(made.headers.get('cache-control'), 'no-store', 'an answer with a secret is kept by no cache');
    assert.deepEqual([key.name, key.status, key.models, key.rpm, key.concurrency, key.expires_at, key.last_used_at], ['ada-laptop', 'enabled', ['echo'], 30, 3, null, null]);
    assert.equal(key.prefix, `${secret.slice(0, 7)}…`);
    assert.equal(snippets.base_url, `${t.gw.url}/v1`);
    assert.equal(snippets.model, 'echo', 'the chat model the examples call');
    for (const snippet of [snippets.curl, snippets.python, snippets.node]) assert.ok(snippet.includes(secret) && snippet.includes(`${t.gw.url}/v1`), snippet);
    assert.match(snippets.python, /from openai import OpenAI/);
    assert.match(snippets.node, /import OpenAI from 'openai'/);

    const answer = await chat(secret);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.choices[0].message.content, 'You said: from the console key');
    // Charges are written with the request logs, in batches: waited for.
    await poll("the charge on ada's account", async () => ((await t.admin().getAccount('ada'))!.balance < 5_000_000 ? true : undefined));

    const list = await ada.get('/api/console/keys');
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('cache-control'), 'no-store', "an account's data neither");
    // No models is not every model: a key that may use none is refused, null says every model.
    assertError(await ada.post('/api/console/keys', { name: 'no-models', models: [] }), 400, 'invalid_request');
    assert.deepEqual(list.json.data.map((k: { name: string }) => k.name), ['ada-laptop']);
    assert.ok(list.json.data[0].last_used_at, 'last use shown');
    assert.ok(!list.text.includes(secret), 'never the secret again');
  });

  it("one user never sees or changes another account's keys: 404 key_not_found, as for an id that does not exist", async () => {
    const adaKey = (await ada.get('/api/console/keys')).json.data[0];
    const bobList = await bob.get('/api/console/keys');
    assert.deepEqual(bobList.json.data, [], "bob sees none of ada's keys (nor the bootstrap key of account local)");
    for (const action of ['disable', 'enable', 'delete', 'rotate']) {
      assertError(await bob.post(`/api/console/keys/${action}`, { id: adaKey.id }), 404, 'key_not_found');
      assertError(await bob.post(`/api/console/keys/${action}`, { id: 999_999 }), 404, 'key_not_found');
    }
    const after = (await ada.get('/api/console/keys')).json.data[0];
    assert.deepEqual(after, adaKey, "ada's key is unchanged");
    assert.equal((await chat(secrets[0]!)).status, 200);
  });

  it('disable refuses the key on /v1 (403 key_disabled); enable brings it back', async () => {
    const id = (await ada.get('/api/console/keys')).json.data[0].id;
    const disabled = await ada.post('/api/console/keys/disable', { id });
    assert.equal(disabled.json.key.status, 'disabled');
    const refused = await chat(secrets[0]!);
    assertError(refused, 403, 'key_disabled');
    assert.equal((await ada.post('/api/console/keys/enable', { id })).json.key.status, 'enabled');
    assert.equal((await chat(secrets[0]!)).status, 200);
    // The refusal is in ada's own logs, under her key: "did my request get here?" has an answer.
    const requestId = refused.headers.get('x-request-id');
    const row = await poll('the refusal in her logs', async () => (await ada.get(`/api/console/account/logs?request_id=${requestId}`)).json.data[0]);
    assert.deepEqual([row.key_name, row.status, row.error_code], ['ada-laptop', 403, 'key_disabled']);
    assert.deepEqual((await bob.get(`/api/console/account/logs?request_id=${requestId}`)).json.data, [], "not in bob's");
  });

  it('rotate: a new secret with the same settings; the old secret is refused at once', async () => {
    const before = (await ada.get('/api/console/keys')).json.data[0];
    const rotated = await ada.post('/api/console/keys/rotate', { id: before.id });
    assert.equal(rotated.status, 200, rotated.text);
    const fresh = rotated.json.secret;
    secrets.push(fresh);
    assert.notEqual(fresh, secrets[0]);
    assert.deepEqual({ ...rotated.json.key, prefix: null }, { ...before, prefix: null }, 'same id, name, models, limits');
    assertError(await chat(secrets[0]!), 401, 'invalid_api_key');
    assert.equal((await chat(fresh)).status, 200);
  });

  it('delete: gone from the list and refused on /v1', async () => {
    const made = await ada.post('/api/console/keys', { name: 'ada-temp' });
    secrets.push(made.json.secret);
    assert.equal((await ada.post('/api/console/keys/delete', { id: made.json.key.id })).json.deleted, true);
    assert.deepEqual((await ada.get('/api/console/keys')).json.data.map((k: { name: string }) => k.name), ['ada-laptop']);
    assertError(await chat(made.json.secret), 401, 'invalid_api_key');
    assertError(await ada.post('/api/console/keys/delete', { id: made.json.key.id }), 404, 'key_not_found');
  });

  it("the snippets call a chat model the key may use, whatever the allow-list's order (they are chat requests)", async () => {
    const made = await bob.post('/api/console/keys', { name: 'images-first', models: ['echo-image', 'echo-embedding', 'echo'] });
    assert.equal(made.json.snippets.model, 'echo');
    assert.match(made.json.snippets.curl, /"model": "echo"/);
    const none = await bob.post('/api/console/keys', { name: 'no-chat', models: ['echo-embedding'] });
    assert.equal(none.json.snippets.model, 'echo-embedding', 'no chat model to call: the one it may use');
    for (const key of [made, none]) await bob.post('/api/console/keys/delete', { id: key.json.key.id });
  });

  it('a model named twice is kept once, in the order given, and the key works with it', async () => {
    const made = await bob.post('/api/console/keys', { name: 'twice', models: ['echo', 'echo-embedding', 'echo', 'echo-embedding'] });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.json.key.models, ['echo', 'echo-embedding']);
    const listed = (await bob.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'twice');
    assert.deepEqual(listed.models, ['echo', 'echo-embedding']);
    assert.deepEqual((await t.admin().listKeys()).find((k) => k.id === made.json.key.id)!.models, ['echo', 'echo-embedding'], 'stored once each');
    assert.equal((await chat(made.json.secret)).status, 200);
    assert.equal((await bob.post('/api/console/keys/delete', { id: made.json.key.id })).json.deleted, true);
  });

  it('key names are per account: bob may use a name ada has (nothing said about hers), but not twice on his own', async () => {
    const adaBefore = (await ada.get('/api/console/keys')).json.data;
    const bobs = await bob.post('/api/console/keys', { name: 'ada-laptop' });
    assert.equal(bobs.status, 201);
    secrets.push(bobs.json.secret);
    assert.ok(!adaBefore.some((k: { id: number }) => k.id === bobs.json.key.id), 'a key of its own');
    assertError(await bob.post('/api/console/keys', { name: 'ada-laptop' }), 409, 'key_name_taken');
    assert.equal((await bob.post('/api/console/keys/delete', { id: bobs.json.key.id })).json.deleted, true);
    assert.deepEqual((await ada.get('/api/console/keys')).json.data, adaBefore, "ada's key of that name untouched by bob's create and delete");
  });

  it('refuses bad keys with the contract errors: a taken name, an unknown model, a past expiry, a bad name, no session, another site', async () => {
    assertError(await ada.post('/api/console/keys', { name: 'ada-laptop' }), 409, 'key_name_taken');
    assertError(await bob.post('/api/console/keys', { name: 'k1', models: ['no-such-model'] }), 400, 'invalid_request');
    const control = await bob.post('/api/console/keys', { name: 'k1', models: ['a\u0000b'] });
    assertError(control, 400, 'invalid_request');
    assert.match(control.json.error.message, /models\.0: must not contain control characters/);
    assertError(await bob.post('/api/console/keys', { name: 'k2', expires_at: '2001-01-01T00:00:00Z' }), 400, 'invalid_request');
    assertError(await bob.post('/api/console/keys', { name: 'bad name with spaces' }), 400, 'invalid_request');
    assertError(await bob.post('/api/console/keys', { name: 'k3', rpm: -1 }), 400, 'invalid_request');
    assertError(await bob.post('/api/console/keys', { id: 'x' }, {}), 400, 'invalid_request');
    assertError(await consoleAgent(t.gw).post('/api/console/keys', { name: 'k4' }), 401, 'not_signed_in');
    // A cross-site form post with bob's cookie: refused, and no key made.
    assertError(await bob.post('/api/console/keys', 'name=evil', { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }), 403, 'cross_site_request');
    assertError(await bob.post('/api/console/keys', { name: 'evil' }, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    assert.deepEqual((await bob.get('/api/console/keys')).json.data, []);
    const expiring = await bob.post('/api/console/keys', { name: 'bob-expiring', expires_at: '2999-01-01T00:00:00Z' });
    assert.equal(expiring.json.key.expires_at, '2999-01-01T00:00:00.000Z');
    secrets.push(expiring.json.secret);
  });

  it('no secret, password or session id is in any request log row', async () => {
    const logs = JSON.stringify(await t.admin().listLogs(10_000));
    assert.ok(logs.includes('/v1/chat/completions'), 'the rows were read');
    assert.ok(logs.includes('/api/console/keys'), 'refused console requests are logged');
    for (const secret of [...secrets, PASSWORD, ada.cookie!, bob.cookie!]) assert.ok(!logs.includes(secret), 'a secret in the logs');
  });
});
