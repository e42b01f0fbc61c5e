// Non-streamed answers through the relay: what goes upstream, what comes back.
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { post, startHarness, type Harness } from './harness.ts';

describe('relay: non-streamed answers', () => {
  let fake: FakeUpstream;
  let harness: Harness;

  beforeEach(async () => {
    fake = await startFakeUpstream();
    harness = await startHarness({ channels: [{ baseUrl: fake.url, apiKey: 'sk-up', models: { 'gpt-platform': 'upstream-model-v2', m: 'm' } }] });
  });
  afterEach(async () => {
    await harness.close();
    await fake.close();
  });

  it('maps the model both ways, sends the channel key, passes unknown fields through untouched', async () => {
    fake.behaviour = { answerModel: 'upstream-model-v2-2025-01-01', pieces: ['Hi', ' there'] };
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } } }];
    const body = {
      model: 'gpt-platform',
      messages: [{ role: 'user', content: 'hello' }],
      tools,
      tool_choice: 'auto',
      temperature: 0.25,
      response_format: { type: 'json_object' },
      some_vendor_field: { nested: [1, 'two', null] },
    };
    const response = await post(harness, body);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const answer = (await response.json()) as any;
    assert.equal(answer.model, 'gpt-platform');
    assert.equal(answer.choices[0].message.content, 'Hi there');
    assert.deepEqual(answer.usage, { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: 2, total_tokens: FAKE_PROMPT_TOKENS + 2, cost: 0 });

    const sent = fake.requests[0]!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, 'Bearer sk-up');
    assert.deepEqual(sent.body, { ...body, model: 'upstream-model-v2' });

    const log = await harness.log(1);
    assert.equal(log.errorCode, null);
    assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [FAKE_PROMPT_TOKENS, 2, false]);
    assert.equal(log.channel, harness.channels[0]!.name);
    assert.equal(typeof log.firstByteMs, 'number');
  });

  it('keeps the model name when it is not mapped, and tolerates a trailing slash in the base URL', async () => {
    await harness.setChannels([{ baseUrl: `${fake.url}/`, models: { plain: 'plain' } }]);
    const response = await post(harness, { model: 'plain', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).model, 'plain');
    assert.equal(fake.requests[0]!.path, '/v1/chat/completions');
    assert.equal(fake.requests[0]!.body.model, 'plain');
  });

  it('caps the completion at what the account can pay for, only when it must', async () => {
    let asked = 0;
    const ask = async (extra: object) => {
      await harness.affordOnly('m', 100);
      assert.equal((await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], ...extra })).status, 200);
      await harness.log(++asked); // its charge is in the store before the next balance is set
    };
    await ask({});
    await ask({ max_tokens: 50 });
    await ask({ max_tokens: 500 });
    await ask({ max_completion_tokens: 500 });
    await harness.affordAll('m');
    await (await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 5000 })).text();
    const sent = fake.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens]);
    assert.deepEqual(sent, [
      [100, undefined],
      [50, undefined],
      [100, undefined],
      [undefined, 100],
      [5000, undefined],
    ]);
  });

  it('estimates usage when the upstream reports none, and says so', async () => {
    fake.behaviour = { omitUsage: true, pieces: ['abcdefgh', 'ijkl'] };
    const response = await post(harness, { model: 'm', messages: [{ role: 'user', content: 'a'.repeat(40) }] });
    const answer = (await response.json()) as any;
    assert.equal(answer.usage, undefined);
    const log = await harness.log(1);
    assert.equal(log.errorCode, null);
    assert.equal(log.usageEstimated, true);
    assert.equal(log.completionTokens, 3); // 12 characters, about 4 per token
    assert.ok(log.promptTokens >= 10);
  });

  it('passes an upstream 400 back to the client: its status and message, our type and code, no failover', async () => {
    const second = await startFakeUpstream();
    try {
      await harness.setChannels([{ baseUrl: fake.url, priority: 2 }, { baseUrl: second.url, priority: 1 }]);
      fake.behaviour = { status: 400, errorMessage: "Unsupported parameter: 'temperature'" };
      const response = await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 3 });
      assert.equal(response.status, 400);
      const body = (await response.json()) as any;
      assert.equal(body.error.code, 'invalid_request');
      assert.equal(body.error.type, 'model_gateway_error');
      assert.ok(body.error.message.includes("Unsupported parameter: 'temperature'"));
      const log = await harness.log(1);
      assert.deepEqual([log.status, log.errorCode, log.channel, log.cost], [400, 'invalid_request', harness.channels[0]!.name, 0]);
      assert.equal(second.requests.length, 0);
    } finally {
      await second.close();
    }
  });
});
