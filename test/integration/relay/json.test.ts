// Non-streamed answers through the relay: what goes upstream, what comes back.
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { channel, post, startHarness, type Harness } from './harness.ts';

describe('relay: non-streamed answers', () => {
  let fake: FakeUpstream;
  let harness: Harness;

  beforeEach(async () => {
    fake = await startFakeUpstream();
    harness = await startHarness({ channels: [channel({ baseUrl: fake.url, apiKey: 'sk-up', models: new Map([['gpt-platform', 'upstream-model-v2']]) })] });
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
    assert.deepEqual(answer.usage, { prompt_tokens: FAKE_PROMPT_TOKENS, completion_tokens: 2, total_tokens: FAKE_PROMPT_TOKENS + 2 });

    const sent = fake.requests[0]!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, 'Bearer sk-up');
    assert.deepEqual(sent.body, { ...body, model: 'upstream-model-v2' });

    const outcome = await harness.outcome(1);
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(outcome.usage, { promptTokens: FAKE_PROMPT_TOKENS, completionTokens: 2, estimated: false });
    assert.equal(outcome.channel, harness.options.channels[0]!.name);
    assert.equal(typeof outcome.firstByteMs, 'number');
  });

  it('keeps the model name when it is not mapped, and tolerates a trailing slash in the base URL', async () => {
    harness.options = { channels: [channel({ baseUrl: `${fake.url}/` })] };
    const response = await post(harness, { model: 'plain', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as any).model, 'plain');
    assert.equal(fake.requests[0]!.path, '/v1/chat/completions');
    assert.equal(fake.requests[0]!.body.model, 'plain');
  });

  it('caps the completion only when the account requires it', async () => {
    harness.options = { ...harness.options, maxCompletionTokens: 100 };
    await (await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }] })).text();
    await (await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 50 })).text();
    await (await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 500 })).text();
    await (await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 500 })).text();
    harness.options = { ...harness.options, maxCompletionTokens: null };
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
    const outcome = await harness.outcome(1);
    assert.equal(outcome.kind, 'success');
    assert.equal(outcome.usage.estimated, true);
    assert.equal(outcome.usage.completionTokens, 3); // 12 characters, about 4 per token
    assert.ok(outcome.usage.promptTokens >= 10);
  });

  it('passes an upstream 400 back to the client: its status and message, our type and code, no failover', async () => {
    const second = await startFakeUpstream();
    try {
      harness.options = { channels: [channel({ baseUrl: fake.url, priority: 2 }), channel({ baseUrl: second.url, priority: 1 })] };
      fake.behaviour = { status: 400, errorMessage: "Unsupported parameter: 'temperature'" };
      const response = await post(harness, { model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 3 });
      assert.equal(response.status, 400);
      const body = (await response.json()) as any;
      assert.equal(body.error.code, 'invalid_request');
      assert.equal(body.error.type, 'model_gateway_error');
      assert.ok(body.error.message.includes("Unsupported parameter: 'temperature'"));
      const outcome = await harness.outcome(1);
      assert.equal(outcome.kind, 'failed');
      assert.deepEqual(outcome.kind === 'failed' && outcome.upstreamRejection, { status: 400, message: "Unsupported parameter: 'temperature'" });
      assert.equal(second.requests.length, 0);
    } finally {
      await second.close();
    }
  });
});
