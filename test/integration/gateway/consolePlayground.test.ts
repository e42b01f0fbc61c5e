// The console's Playground over real HTTP (issue 10, contract 4.10): POST /api/console/playground/chat relays a
// signed-in user's chat like POST /v1/chat/completions with stream: true, for the account's key named
// "Playground" (made on first use, listed on the Keys page, its secret never answered): the answer streams
// chat.completion.chunk events, the last with usage and its cost; the account is charged that cost and the
// request is logged under the Playground key; a disabled Playground key refuses (403 key_disabled) until it is
// enabled again; the route wants a session (401), the console's origin (403) and a body it can read (400).
import assert from 'node:assert/strict';
import { SseDecoder } from '../../../src/wire/sse.ts';
import { assertError, type Answer } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, consoleAgent, type ConsoleAgent } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

const PATH = '/api/console/playground/chat';

interface Streamed { readonly text: string; readonly usage: { prompt_tokens: number; completion_tokens: number; cost: number } | undefined; readonly done: boolean }

/** The events of a streamed answer: the text of every delta, the usage of the last chunk, and whether [DONE] ended it. */
function readStream(answer: Answer): Streamed {
  const decoder = new SseDecoder();
  const items = [...decoder.push(new TextEncoder().encode(answer.text)), ...decoder.end()];
  let text = '';
  let usage: Streamed['usage'];
  let done = false;
  for (const item of items) {
    if (item.type !== 'event') continue;
    if (item.data === '[DONE]') {
      done = true;
      continue;
    }
    const chunk = JSON.parse(item.data);
    for (const choice of chunk.choices ?? []) text += choice.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage, done };
}

describe('the console playground over HTTP', function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  const chat = (agent: ConsoleAgent, content: string, extra: object = {}, headers: Record<string, string> = {}) =>
    agent.post(PATH, { model: 'echo', messages: [{ role: 'user', content }], ...extra }, headers);
  const playgroundKey = async () => (await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'Playground');

  before(async () => {
    t = await startTestGateway();
    ({ ada } = await adaAndBob(t.gw, t.admin()));
  });
  after(async () => t.close());

  it('streams the answer, charges the account its cost and logs it under the Playground key, made on first use', async () => {
    assert.equal(await playgroundKey(), undefined, 'no Playground key before the first chat');
    const before = (await ada.get('/api/console/account')).json;
    const answer = await chat(ada, 'hello from the playground');
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/event-stream/);
    const streamed = readStream(answer);
    assert.equal(streamed.text, 'You said: hello from the playground');
    assert.ok(streamed.done, 'ended with [DONE]');
    assert.ok(streamed.usage && streamed.usage.cost > 0 && streamed.usage.prompt_tokens > 0 && streamed.usage.completion_tokens > 0, JSON.stringify(streamed.usage));
    assert.ok(!answer.text.includes('sk-'), 'no secret in the answer');

    const key = await playgroundKey();
    assert.equal(key.status, 'enabled');
    const store = t.admin();
    assert.equal((await store.listKeys()).find((k) => k.id === key.id)!.userId, null, 'the account\'s, not ada\'s: another user of the account keeps it if she is disabled');
    const requestId = answer.headers.get('x-request-id');
    const row = await poll('the playground request logged', async () =>
      (await ada.get(`/api/console/account/logs?request_id=${requestId}`)).json.data[0], 5000, 25);
    assert.deepEqual([row.key_name, row.key_id, row.model, row.status, row.stream, row.path], ['Playground', key.id, 'echo', 200, true, PATH]);
    const cost = Math.round(streamed.usage!.cost * 1e6);
    assert.equal(row.cost.micro_usd, cost, 'logged at the cost the answer told');
    const after = (await ada.get('/api/console/account')).json;
    assert.equal(before.account.balance.remaining.micro_usd - after.account.balance.remaining.micro_usd, cost, 'the account paid it');
    const listed = await poll('the key spent it', async () => {
      const k = await playgroundKey();
      return k.spent.micro_usd === cost ? k : undefined;
    }, 5000, 25);
    assert.equal(listed.id, key.id);
  });

  it('a conversation with a system prompt: every turn relayed, the same key used again', async () => {
    const answer = await ada.post(PATH, {
      model: 'echo', system: 'Answer briefly.',
      messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'You said: first' }, { role: 'user', content: 'second' }],
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(readStream(answer).text, 'You said: second');
    const keys = (await ada.get('/api/console/keys')).json.data.filter((k: { name: string }) => k.name === 'Playground');
    assert.equal(keys.length, 1, 'one Playground key');
  });

  it('a disabled Playground key refuses with 403 key_disabled, and nothing is charged; enabled, it works again', async () => {
    const key = await playgroundKey();
    assert.equal((await ada.post('/api/console/keys/disable', { id: key.id })).status, 200);
    const before = (await ada.get('/api/console/account')).json.account.balance;
    assertError(await chat(ada, 'while disabled'), 403, 'key_disabled');
    assert.deepEqual((await ada.get('/api/console/account')).json.account.balance, before);
    assert.equal((await ada.post('/api/console/keys/enable', { id: key.id })).status, 200);
    assert.equal((await chat(ada, 'enabled again')).status, 200);
  });

  it('wants a session, the console origin and a body it can read', async () => {
    assertError(await chat(consoleAgent(t.gw), 'nobody'), 401, 'not_signed_in');
    assertError(await chat(ada, 'from elsewhere', {}, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    assertError(await ada.post(PATH, { model: 'echo', messages: [] }), 400, 'invalid_request');
    assertError(await ada.post(PATH, { model: 'echo', messages: [{ role: 'system', content: 'not a turn' }] }), 400, 'invalid_request');
    assertError(await chat(ada, 'an embedding model', { model: 'echo-embedding' }), 400, 'wrong_endpoint');
    assertError(await chat(ada, 'nothing', { model: 'no-such-model' }), 404, 'model_not_found');
  });

  it("the key's own limits hold: at 1 request a minute, the second chat is refused 429 rate_limited", async () => {
    const key = await playgroundKey();
    assert.equal((await ada.post('/api/console/keys/limits', { id: key.id, rpm: 1 })).status, 200);
    assert.equal((await chat(ada, 'one')).status, 200);
    assertError(await chat(ada, 'two'), 429, 'rate_limited');
  });
});
