// Chat completions end to end: the official openai SDK as an unchanged client (echo channel and an
// openai channel to the fake upstream), models list filtered by key, billing math, abort charging.
import assert from 'node:assert/strict';
import OpenAI, { AuthenticationError, NotFoundError, PermissionDeniedError, RateLimitError } from 'openai';
import { ECHO_OWNER } from '../../../src/contract/index.ts';
import { createKey, keyNamed } from '../../../src/gateway/admin.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, chatModel, startTestGateway, useGatewayWithUpstream, waitForLog } from './helpers.ts';
import type { Started } from './helpers.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';

describe('chat completions through the gateway', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await addChannelPricedFree(admin, newChannel({ name: 'fake', baseUrl: upstream.url, apiKey: 'upstream-secret', models: { 'gpt-x': 'up-model', other: 'other' } }));
    await admin.setModel(chatModel('gpt-x', 150_000, 600_000, { contextLength: 128_000, toolCalling: true }));
  });
  let t: Started;
  let upstream: FakeUpstream;
  let sdk: OpenAI;
  before(() => ({ t, upstream, openai: sdk } = suite));

  it('openai SDK: non-streaming echo answer with the platform model name and usage', async () => {
    const answer = await sdk.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'hello there' }] });
    assert.equal(answer.model, 'echo');
    assert.equal(answer.choices[0]!.message.content, 'You said: hello there');
    assert.ok(answer.usage && answer.usage.completion_tokens > 0);
  });

  it('openai SDK: streaming echo, token by token, with usage when asked', async () => {
    const stream = await sdk.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'stream me please' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'You said: stream me please');
    assert.ok(chunks > 3, 'several chunks');
    assert.ok(usage && usage.completion_tokens === 5);
  });

  it('openai SDK: errors surface as AuthenticationError, PermissionDeniedError, NotFoundError, RateLimitError', async () => {
    const messages = [{ role: 'user' as const, content: 'x' }];
    const bad = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    await assert.rejects(bad.chat.completions.create({ model: 'echo', messages }), (e: unknown) => e instanceof AuthenticationError && e.code === 'invalid_api_key');
    await assert.rejects(bad.models.list(), AuthenticationError);

    const admin = t.admin();
    const limited = await createKey(admin, { account: 'local', name: 'sdk-limited', models: ['gpt-x'], rpm: 2 });
    const client = new OpenAI({ apiKey: limited.secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    await assert.rejects(client.chat.completions.create({ model: 'echo', messages }), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'model_not_permitted');
    await assert.rejects(client.chat.completions.create({ model: 'nope', messages }), (e: unknown) => e instanceof NotFoundError && e.code === 'model_not_found');
    await assert.rejects(client.chat.completions.create({ model: 'echo', messages }), (e: unknown) => e instanceof RateLimitError && e.code === 'rate_limited');

    const disabled = await createKey(admin, { account: 'local', name: 'sdk-disabled' });
    await admin.setKeyStatus((await keyNamed(admin, 'sdk-disabled')).id, 'disabled');
    const off = new OpenAI({ apiKey: disabled.secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    await assert.rejects(off.chat.completions.create({ model: 'echo', messages }), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'key_disabled');
  });

  it('openai channel: maps the model name upstream, passes unknown fields through, answers with the platform name', async () => {
    const before = upstream.requests.length;
    const answer = await sdk.chat.completions.create({
      model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], temperature: 0.3,
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
    });
    assert.equal(answer.model, 'gpt-x');
    const seen = upstream.requests[before]!;
    assert.equal(seen.body.model, 'up-model');
    assert.equal(seen.body.temperature, 0.3);
    assert.equal(seen.body.tools[0].function.name, 'f');
    assert.equal(seen.headers.authorization, 'Bearer upstream-secret');

    const stream = await sdk.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
  });

  describe('echo tool calls through the openai SDK', () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'function', function: { name: 'list_files', description: 'Files in a folder', parameters: { type: 'object', properties: {} } } },
    ];
    const ask: OpenAI.Chat.Completions.ChatCompletionMessageParam = { role: 'user', content: 'Please call get_weather {"city": "Zürich 🌧"} for me' };

    it('non-streaming: a tool_calls message, then the tool result is answered', async () => {
      const answer = await sdk.chat.completions.create({ model: 'echo', messages: [ask], tools });
      const choice = answer.choices[0]!;
      assert.equal(choice.finish_reason, 'tool_calls');
      assert.equal(choice.message.content, null);
      assert.equal(choice.message.tool_calls?.length, 1);
      const call = choice.message.tool_calls![0]!;
      assert.equal(call.type, 'function');
      assert.ok(call.type === 'function' && call.function.name === 'get_weather');
      assert.deepEqual(call.type === 'function' && JSON.parse(call.function.arguments), { city: 'Zürich 🌧' });
      assert.ok(answer.usage && answer.usage.completion_tokens > 1);

      const final = await sdk.chat.completions.create({
        model: 'echo',
        tools,
        messages: [ask, choice.message, { role: 'tool', tool_call_id: call.id, content: 'Rain, 12 °C' }],
      });
      assert.equal(final.choices[0]!.finish_reason, 'stop');
      assert.equal(final.choices[0]!.message.content, 'Tool get_weather returned: Rain, 12 °C');
      assert.equal(final.choices[0]!.message.tool_calls ?? undefined, undefined);
    });

    it('streaming: the call arrives over several deltas with finish_reason tool_calls and usage; the SDK puts it together', async () => {
      const stream = await sdk.chat.completions.create({ model: 'echo', messages: [ask], tools, stream: true, stream_options: { include_usage: true } });
      let id = '';
      let name = '';
      let args = '';
      let argumentDeltas = 0;
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices[0];
        if (!choice) continue;
        assert.equal(choice.delta.content ?? null, null, 'no text in a tool-call answer');
        for (const fragment of choice.delta.tool_calls ?? []) {
          assert.equal(fragment.index, 0);
          if (fragment.id) id = fragment.id;
          if (fragment.function?.name) name += fragment.function.name;
          if (fragment.function?.arguments) {
            args += fragment.function.arguments;
            argumentDeltas++;
          }
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      assert.ok(id.length > 0);
      assert.equal(name, 'get_weather');
      assert.deepEqual(JSON.parse(args), { city: 'Zürich 🌧' });
      assert.ok(argumentDeltas > 1, `arguments in ${argumentDeltas} deltas`);
      assert.equal(finish, 'tool_calls');
      assert.ok(usage && usage.completion_tokens === 1 + argumentDeltas, JSON.stringify(usage));

      // The SDK's own stream helper assembles the same call.
      const runner = sdk.chat.completions.stream({ model: 'echo', messages: [{ role: 'user', content: 'call list_files' }], tools });
      const done = await runner.finalChatCompletion();
      const call = done.choices[0]!.message.tool_calls![0]!;
      assert.ok(call.type === 'function' && call.function.name === 'list_files' && call.function.arguments === '{}');
      assert.equal(done.choices[0]!.finish_reason, 'tool_calls');
    });

    it('without tools, or naming a tool it was not given, echo answers with text', async () => {
      const plain = await sdk.chat.completions.create({ model: 'echo', messages: [ask] });
      assert.equal(plain.choices[0]!.message.content, 'You said: Please call get_weather {"city": "Zürich 🌧"} for me');
      const unknown = await sdk.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'call rm_rf' }], tools });
      assert.equal(unknown.choices[0]!.message.content, 'You said: call rm_rf');
    });

    it('/v1/models declares tool calling and image input for the bootstrapped echo model', async () => {
      const all = await call(t.gw, 'GET', '/v1/models', { key: t.key });
      const echo = all.json.data.find((m: { id: string }) => m.id === 'echo');
      assert.deepEqual(echo.capabilities, { tool_calling: true, image_input: true });
      assert.deepEqual(echo.architecture, { input_modalities: ['text', 'image'] });
    });
  });

  it('/v1/models lists exactly the models a key may use, echo owned by the echo owner', async () => {
    const all = await sdk.models.list();
    const ids = all.data.map((m) => m.id).sort();
    assert.deepEqual(ids, ['echo', 'echo-completion', 'echo-embedding', 'echo-image', 'gpt-x', 'other']);
    assert.deepEqual(all.data.map((m) => [m.id, (m as unknown as { kind: string }).kind]).sort(), [
      ['echo', 'chat'], ['echo-completion', 'completion'], ['echo-embedding', 'embedding'], ['echo-image', 'image'], ['gpt-x', 'chat'], ['other', 'chat'],
    ]);
    assert.equal(all.data.find((m) => m.id === 'echo')!.owned_by, ECHO_OWNER);
    assert.notEqual(all.data.find((m) => m.id === 'gpt-x')!.owned_by, ECHO_OWNER);

    const only = await createKey(t.admin(), { account: 'local', name: 'only-gpt', models: ['gpt-x', 'not-served'] });
    const answer = await call(t.gw, 'GET', '/v1/models', { key: only.secret });
    assert.equal(answer.json.object, 'list');
    assert.deepEqual(answer.json.data.map((m: { id: string }) => m.id), ['gpt-x']);
    assert.equal(answer.json.data[0].object, 'model');
    assert.equal(typeof answer.json.data[0].created, 'number');
  });

  it('/v1/models/{model} answers one model as the list has it, a slashed name too; 404 for one the key may not use', async () => {
    await t.admin().addChannel(newChannel({ name: 'vendor', baseUrl: upstream.url, models: { 'vendor/model-1': 'model-1' } }));
    await t.admin().setModel(chatModel('vendor/model-1', 1, 1));
    const listed = await poll('the new model is listed', async () => (await sdk.models.list()).data.find((m) => m.id === 'vendor/model-1'), 5000);
    assert.deepEqual(await sdk.models.retrieve('vendor/model-1'), listed);
    assert.deepEqual(await sdk.models.retrieve('gpt-x'), (await sdk.models.list()).data.find((m) => m.id === 'gpt-x'));
    await assert.rejects(sdk.models.retrieve('no-such-model'), (e: unknown) => e instanceof NotFoundError && e.code === 'model_not_found');
    const only = await createKey(t.admin(), { account: 'local', name: 'only-gpt-one', models: ['gpt-x'] });
    const narrow = new OpenAI({ apiKey: only.secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    await assert.rejects(narrow.models.retrieve('echo'), NotFoundError);
    await assert.rejects(new OpenAI({ apiKey: 'sk-wrong', baseURL: `${t.gw.url}/v1`, maxRetries: 0 }).models.retrieve('echo'), AuthenticationError);
    const bad = await call(t.gw, 'GET', '/v1/models/%E0%A4%A', { key: t.key });
    assert.deepEqual([bad.status, bad.json.error.code], [400, 'invalid_request']);
    const long = await call(t.gw, 'GET', `/v1/models/${'m'.repeat(300)}`, { key: t.key });
    assert.deepEqual([long.status, long.json.error.code], [400, 'invalid_request']);
  });

  it('/v1/models/{model} finds a long name whose encoded path is past 256 characters: the path is routed whole, cut only in the log', async () => {
    // Before: the path was cut (to 256 characters and a marker) before routing, so such a name was looked up cut.
    const name = `vendor/${'é'.repeat(120)}`;
    await t.admin().addChannel(newChannel({ name: 'long-names', baseUrl: upstream.url, models: { [name]: 'up' } }));
    await t.admin().setModel(chatModel(name, 1, 1));
    const listed = await poll('the long name is listed', async () => (await sdk.models.list()).data.find((m) => m.id === name), 5000);
    const one = await call(t.gw, 'GET', `/v1/models/${encodeURIComponent(name)}`, { key: t.key });
    assert.equal(one.status, 200, one.text.slice(0, 300));
    assert.deepEqual(one.json, listed);
    const log = await waitForLog(t.admin(), (l) => l.requestId === one.headers.get('x-request-id'));
    assert.ok(log && log.path.length <= 256 && log.path.endsWith(`…(${'/v1/models/'.length + encodeURIComponent(name).length} characters)`), log?.path);
  });

  it('/v1/models/{model} for a model a channel serves but nobody priced: 403 model_not_priced, as a request for it gets; not listed', async () => {
    // Before: 404 model_not_found, sending the user to check a name that was right, while the operator had a price to set.
    await t.admin().addChannel(newChannel({ name: 'unpriced-ch', baseUrl: upstream.url, models: { 'unpriced-model': 'up' } }));
    const post = await poll('the channel is loaded', async () => {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('unpriced-model') });
      return answer.status === 403 ? answer : undefined;
    }, 5000);
    assert.equal(post.json.error.code, 'model_not_priced');
    const one = await call(t.gw, 'GET', '/v1/models/unpriced-model', { key: t.key });
    assert.deepEqual([one.status, one.json.error.code], [403, 'model_not_priced']);
    assert.match(one.json.error.message, /model-gateway model price unpriced-model/);
    await assert.rejects(sdk.models.retrieve('unpriced-model'), (e: unknown) => e instanceof PermissionDeniedError && e.code === 'model_not_priced');
    assert.ok(!(await sdk.models.list()).data.some((m) => m.id === 'unpriced-model'), 'not listed: it is not served');
    const { secret } = await createKey(t.admin(), { account: 'local', name: 'echo-only', models: ['echo'] });
    const other = await poll('the key loaded', async () => {
      const answer = await call(t.gw, 'GET', '/v1/models/unpriced-model', { key: secret });
      return answer.status === 401 ? undefined : answer;
    }, 5000);
    assert.deepEqual([other.status, other.json.error.code], [404, 'model_not_found'], 'to a key that may not use it, as unknown as any model not its own');
  });

  it('a client that disconnects mid-stream is charged for what was generated, and it is logged', async () => {
    upstream.behaviour = { gated: true, chunks: 20 };
    const before = upstream.requests.length;
    const controller = new AbortController();
    const res = await fetch(`${t.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-x', 'tell me a long story', { stream: true })), signal: controller.signal,
    });
    const requestId = res.headers.get('x-request-id')!;
    const reader = res.body!.getReader();
    await reader.read();
    upstream.release(2);
    await reader.read();
    controller.abort();
    const seen = upstream.requests[before]!;
    assert.equal(await seen.closed, 'aborted', 'the upstream request is aborted with the client');
    upstream.behaviour = {};

    const admin = t.admin();
    const log = await waitForLog(admin, (l) => l.requestId === requestId);
    assert.ok(log, 'the aborted request is logged');
    assert.equal(log.stream, true);
    assert.equal(log.errorCode, 'client_aborted');
    assert.ok(log.completionTokens >= 1);
    assert.equal(log.cost, costOf(log.promptTokens, log.completionTokens, 150_000, 600_000));
    assert.ok(log.cost > 0);
  });

  it('a client that disconnects while a non-streamed answer is awaited aborts the upstream request, and it is logged', async () => {
    upstream.behaviour = { hang: 'headers' };
    const before = upstream.requests.length;
    const controller = new AbortController();
    const pending = fetch(`${t.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-x', 'hello there')), signal: controller.signal,
    }).then(() => 'answered', () => 'aborted');
    for (let i = 0; i < 100 && upstream.requests.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    assert.equal(await pending, 'aborted');
    const seen = upstream.requests[before]!;
    assert.equal(await seen.closed, 'aborted', 'the upstream request is aborted with the client');
    upstream.behaviour = {};

    const admin = t.admin();
    const log = await waitForLog(admin, (l) => !l.stream && l.errorCode === 'client_aborted');
    assert.ok(log, 'the aborted request is logged');
    assert.equal(log.completionTokens, 0);
    assert.equal(log.cost, costOf(log.promptTokens, 0, 150_000, 600_000));
  });
});

describe('billing endpoints', () => {
  it('hard_limit_usd − total_usage/100 is the balance; logged costs equal the balance decrease', async () => {
    const t = await startTestGateway();
    try {
      const sdk = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
      const fresh = await call(t.gw, 'GET', '/v1/dashboard/billing/subscription', { key: t.key });
      assert.equal(fresh.json.hard_limit_usd, 10);
      assert.equal((await call(t.gw, 'GET', '/v1/dashboard/billing/usage', { key: t.key })).json.total_usage, 0);
      for (let i = 0; i < 5; i++) await sdk.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: `message number ${i} with a few words` }] });
      const sub = (await call(t.gw, 'GET', '/v1/dashboard/billing/subscription', { key: t.key })).json;
      const usage = (await call(t.gw, 'GET', '/v1/dashboard/billing/usage', { key: t.key })).json;
      assert.equal(sub.hard_limit_usd, 10, 'granted = balance + spent stays the same');
      assert.ok(usage.total_usage > 0);
      const spentMicro = Math.round(usage.total_usage * 10_000);
      await t.gw.stop();
      const store = openStore({ dataDir: t.dir });
      try {
        const account = (await store.getAccount('local'))!;
        const logs = await store.listLogs(1000);
        const logged = logs.reduce((sum, l) => sum + l.cost, 0);
        assert.equal(logs.filter((l) => l.path === '/v1/chat/completions').length, 5);
        assert.equal(logged, spentMicro);
        assert.equal(account.balance, 10_000_000 - logged);
        assert.equal(account.totalSpent, logged);
        assert.equal(Math.round((sub.hard_limit_usd - usage.total_usage / 100) * 1e6), account.balance);
      } finally {
        await store.close();
      }
    } finally {
      await t.close();
    }
  });
});
