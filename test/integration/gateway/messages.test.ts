// The Anthropic Messages API through the gateway, with the official @anthropic-ai/sdk as an unchanged
// client (what Claude Code uses): plain, streaming, tool use round trips, count_tokens and the SDK's
// error classes, against an `anthropic` channel (passthrough: thinking signatures and headers intact),
// an `openai` channel (converted there and back) and the offline echo model; and chat completions
// (the official openai SDK) served by an `anthropic` channel. Every answer charged exactly.
import assert from 'node:assert/strict';
import Anthropic, { AuthenticationError, NotFoundError, PermissionDeniedError, RateLimitError } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { betaZodTool } from '@anthropic-ai/sdk/helpers/beta/zod';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { z } from 'zod';
import { createKey } from '../../../src/gateway/admin.ts';
import { costOf, costOfTokens } from '../../../src/gateway/accounts/money.ts';
import { FAKE_SIGNATURE } from '../../support/fakeMessages.ts';
import { FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { assertError } from '../../support/answer.ts';
import { anthropicOn, call, chatModel, logOfRequest, useGatewayWithUpstream, waitForLog, type Started } from './helpers.ts';

const INPUT = 3_000_000;
const OUTPUT = 15_000_000;

describe('the Anthropic Messages API (/v1/messages)', () => {
  const channelKeys = { anthropic: 'sk-ant-upstream-secret', openai: 'sk-openai-upstream-secret' };
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    // Anthropic documents its base URL without /v1; the channel takes either form.
    await admin.addChannel(newChannel({ name: 'ant', type: 'anthropic', baseUrl: upstream.url.replace(/\/v1$/, ''), apiKey: channelKeys.anthropic, models: { 'claude-up': 'claude-sonnet-4-5' } }));
    await admin.addChannel(newChannel({ name: 'oai', type: 'openai', baseUrl: upstream.url, apiKey: channelKeys.openai, models: { 'gpt-up': 'gpt-4o' } }));
    for (const name of ['claude-up', 'gpt-up']) await admin.setModel(chatModel(name, INPUT, OUTPUT, { toolCalling: true }));
    // The failover tests fail one channel again and again on purpose: no circuit breaker between them.
  }, { breakerFailures: 0 });
  let t: Started;
  let upstream: FakeUpstream;
  let openai: OpenAI;
  let claude: Anthropic;
  before(() => {
    ({ t, upstream, openai, claude } = suite);
  });

  const logOf = (requestId: string | null) => logOfRequest(t.admin(), requestId);

  describe('on an anthropic channel (passthrough)', () => {
    it('answers, forwards anthropic-version and anthropic-beta unchanged with the channel key, keeps thinking signatures, charges the reported usage', async () => {
      upstream.behaviour = { thinking: 'Let me think.', cacheRead: 5, cacheWrite: 2 };
      const { data: message, response } = await claude.messages
        .create({ model: 'claude-up', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } })
        .withResponse();
      assert.equal(message.model, 'claude-up');
      assert.deepEqual(message.content, [
        { type: 'thinking', thinking: 'Let me think.', signature: FAKE_SIGNATURE },
        { type: 'text', text: 'w1 w2 w3' },
      ]);
      assert.equal(message.stop_reason, 'end_turn');
      const sent = upstream.requests.at(-1)!;
      assert.equal(sent.path, '/v1/messages');
      assert.equal(sent.headers['x-api-key'], channelKeys.anthropic);
      assert.equal(sent.headers['authorization'], undefined);
      assert.equal(sent.headers['anthropic-version'], response.headers.get('x-sent-version') ?? sent.headers['anthropic-version']);
      assert.match(String(sent.headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(sent.headers['anthropic-beta'], 'interleaved-thinking-2025-05-14');
      assert.equal(sent.body.model, 'claude-sonnet-4-5');
      assert.equal(sent.body.system, 'Be brief.');
      // Input counts cache reads and writes too; the fake reports 11 uncached + 5 read + 2 written.
      const log = await logOf(response.headers.get('x-request-id'));
      assert.deepEqual([log.path, log.model, log.channel, log.promptTokens, log.completionTokens, log.usageEstimated], ['/v1/messages', 'claude-up', 'ant', 18, 5, false]);
      assert.equal(log.cost, costOf(18, 5, INPUT, OUTPUT));
      assert.deepEqual(message.usage, { input_tokens: 11, cache_creation_input_tokens: 2, cache_read_input_tokens: 5, output_tokens: 5 });
    });

    it('prices cache reads and writes at their own rates when the operator sets them, and reports them in /v1/models', async () => {
      await t.admin().setModel(chatModel('claude-up', INPUT, OUTPUT, { toolCalling: true, cachedInputPrice: 300_000, cacheWritePrice: 3_750_000 }));
      try {
        upstream.behaviour = { cacheRead: 1000, cacheWrite: 200 };
        // A prompt long enough to hold the 1,211 tokens the upstream reports (a charge never exceeds what the body could hold).
        const { response } = await claude.messages.create({ model: 'claude-up', max_tokens: 10, messages: [{ role: 'user', content: 'cached '.repeat(1000) }] }).withResponse();
        const log = await logOf(response.headers.get('x-request-id'));
        assert.equal(log.promptTokens, 11 + 1000 + 200);
        assert.equal(log.cost, costOfTokens([[11, INPUT], [1000, 300_000], [200, 3_750_000], [3, OUTPUT]]));
        const listed = (await openai.models.list()).data.find((m) => m.id === 'claude-up') as unknown as { pricing: Record<string, number> };
        assert.deepEqual(listed.pricing, { input_per_million_usd: 3, output_per_million_usd: 15, cached_input_per_million_usd: 0.3, cache_write_per_million_usd: 3.75 });
      } finally {
        await t.admin().setModel(chatModel('claude-up', INPUT, OUTPUT, { toolCalling: true }));
      }
    });

    it('streams Anthropic events byte for byte (thinking and its signature, text, message_delta usage, message_stop)', async () => {
      upstream.behaviour = { thinking: 'Hmm.' };
      const stream = claude.messages.stream({ model: 'claude-up', max_tokens: 50, messages: [{ role: 'user', content: 'stream' }] });
      const types: string[] = [];
      stream.on('streamEvent', (event) => types.push(event.type));
      const message = await stream.finalMessage();
      assert.deepEqual(message.content, [
        { type: 'thinking', thinking: 'Hmm.', signature: FAKE_SIGNATURE },
        { type: 'text', text: 'w1 w2 w3' },
      ]);
      assert.equal(message.model, 'claude-up');
      assert.equal(message.usage.output_tokens, 5);
      assert.equal(types[0], 'message_start');
      assert.equal(types.at(-1), 'message_stop');
      assert.ok(types.includes('message_delta'), types.join());
      const log = await logOf(stream.request_id ?? (await stream.withResponse()).response.headers.get('x-request-id'));
      assert.equal(log.stream, true);
      assert.equal(log.cost, costOf(11, 5, INPUT, OUTPUT));
    });

    it('passes the upstream event stream on byte for byte: only message_start gets the platform model name', async () => {
      upstream.behaviour = { thinking: 'Bytes.' };
      const res = await fetch(`${t.gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-up', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'raw' }] }),
      });
      assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      const events = (await res.text()).split('\n\n').filter(Boolean);
      assert.deepEqual(events.map((e) => e.split('\n')[0]), [
        'event: message_start', 'event: ping',
        'event: content_block_start', 'event: content_block_delta', 'event: content_block_delta', 'event: content_block_stop',
        'event: content_block_start', 'event: content_block_delta', 'event: content_block_delta', 'event: content_block_delta', 'event: content_block_stop',
        'event: message_delta', 'event: message_stop',
      ]);
      assert.equal(events[4], `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"${FAKE_SIGNATURE}"}}`);
      assert.match(events[0]!, /"model":"claude-up"/);
      assert.doesNotMatch(events[0]!, /claude-sonnet-4-5/);
    });

    it('a tool use round trip: tool_use comes back as the upstream sent it, and the tool_result goes up in order', async () => {
      upstream.behaviour = { toolCall: { id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' } };
      const tools = [{ name: 'get_weather', description: 'Weather now', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
      const first = await claude.messages.create({ model: 'claude-up', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
      assert.equal(first.stop_reason, 'tool_use');
      const use = first.content.find((b) => b.type === 'tool_use')!;
      assert.deepEqual([use.type === 'tool_use' && use.name, use.type === 'tool_use' && use.input], ['get_weather', { city: 'Paris' }]);
      upstream.behaviour = { pieces: ['Sunny.'] };
      const messages: Anthropic.MessageParam[] = [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '22 C' }] },
      ];
      const second = await claude.messages.create({ model: 'claude-up', max_tokens: 100, tools, messages });
      assert.deepEqual(second.content, [{ type: 'text', text: 'Sunny.' }]);
      assert.deepEqual(upstream.requests.at(-1)!.body.messages, JSON.parse(JSON.stringify(messages)));
    });

    it('a stream cut midway ends with an Anthropic error event and no message_stop: the SDK raises, the log says so, what was generated is charged', async () => {
      upstream.behaviour = { breakAfter: 2, breakWith: 'end' };
      const stream = claude.messages.stream({ model: 'claude-up', max_tokens: 50, messages: [{ role: 'user', content: 'cut' }] });
      await assert.rejects(stream.finalMessage(), (e: unknown) => e instanceof Anthropic.APIError && /message_stop/.test(String((e as Error).message)));
      const log = await waitForLog(t.admin(), (l) => l.errorCode === 'upstream_error' && l.path === '/v1/messages');
      assert.ok(log);
      assert.equal(log.status, 200);
      // message_start reported the input; the output is estimated from the two text deltas seen ("w1 w2").
      assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [11, 2, true]);
      assert.ok(log.cost > 0, 'a broken stream is charged for what it generated, never zero');
    });

    describe('two anthropic channels: failover before the first byte, a visible break after it', () => {
      const backupKey = 'sk-ant-backup-secret';
      before(async () => {
        const admin = t.admin();
        await admin.addChannel(newChannel({ name: 'ant-main', type: 'anthropic', baseUrl: upstream.url, timeoutMs: 400, priority: 1, apiKey: 'sk-ant-main-secret', models: { 'claude-pair': 'claude-opus-4-5' } }));
        await admin.addChannel(newChannel({ name: 'ant-backup', type: 'anthropic', baseUrl: upstream.url, timeoutMs: 400, apiKey: backupKey, models: { 'claude-pair': 'claude-opus-4-5' } }));
        await admin.setModel(chatModel('claude-pair', INPUT, OUTPUT));
      });
      /** The main channel misbehaves as `failure` says; the backup answers. */
      const mainFails = (failure: object) => {
        upstream.behaviour = (request) => (request.headers['x-api-key'] === backupKey ? {} : failure);
      };

      for (const [what, failure] of [
        ['overloaded (529)', { status: 529 }],
        ['a 500', { status: 500 }],
        ['no headers within the channel timeout', { hang: 'headers' }],
        ['headers, then silence within the channel timeout', { hang: 'body' }],
      ] as const) {
        it(`main channel ${what}: the backup serves it, streamed and not, charged once`, async () => {
          mainFails(failure);
          const { data: plain, response } = await claude.messages.create({ model: 'claude-pair', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
          assert.deepEqual(plain.content, [{ type: 'text', text: 'w1 w2 w3' }]);
          const log = await logOf(response.headers.get('x-request-id'));
          assert.deepEqual([log.status, log.channel, log.cost], [200, 'ant-backup', costOf(11, 3, INPUT, OUTPUT)]);
          const streamed = await claude.messages.stream({ model: 'claude-pair', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
          assert.deepEqual(streamed.content, [{ type: 'text', text: 'w1 w2 w3' }]);
          const keys = upstream.requests.slice(-4).map((r) => r.headers['x-api-key'] === backupKey ? 'backup' : 'main');
          assert.deepEqual(keys, ['main', 'backup', 'main', 'backup']);
        });
      }

      it('a stream that goes silent after its first events: ended within the idle timeout with an Anthropic error event, charged what it sent', async () => {
        mainFails({ breakAfter: 1, breakWith: 'stall' });
        const started = Date.now();
        const stream = claude.messages.stream({ model: 'claude-pair', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
        await assert.rejects(stream.finalMessage(), (e: unknown) => e instanceof Anthropic.APIError);
        assert.ok(Date.now() - started < 5000, 'the stall is cut by the channel timeout, not left hanging');
        const log = await waitForLog(t.admin(), (l) => l.model === 'claude-pair' && l.errorCode === 'upstream_timeout');
        assert.ok(log, 'logged as an upstream timeout');
        assert.deepEqual([log.channel, log.usageEstimated], ['ant-main', true]);
        assert.ok(log.cost > 0);
      });
    });

    it('a stream with its message_delta (stop reason, usage) that lacks only message_stop is complete, and charged its usage', async () => {
      upstream.behaviour = { noDone: true };
      const message = await claude.messages.stream({ model: 'claude-up', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      assert.deepEqual([message.content, message.stop_reason], [[{ type: 'text', text: 'w1 w2 w3' }], 'end_turn']);
      const log = await waitForLog(t.admin(), (l) => l.model === 'claude-up' && l.stream && l.completionTokens === 3 && l.errorCode === null);
      assert.ok(log, 'logged as a success with the reported usage');
      assert.equal(log.usageEstimated, false);
    });

    it('chat completions (the openai SDK) on the anthropic channel: converted to Messages and back, streamed and not', async () => {
      upstream.behaviour = { thinking: 'Reason.' };
      const answer = await openai.chat.completions.create({
        model: 'claude-up', messages: [{ role: 'system', content: 'Sys.' }, { role: 'user', content: 'hi' }], temperature: 1.5, stop: 'END',
      });
      assert.equal(answer.choices[0]!.message.content, 'w1 w2 w3');
      assert.equal((answer.choices[0]!.message as { reasoning_content?: string }).reasoning_content, 'Reason.');
      assert.equal(answer.choices[0]!.finish_reason, 'stop');
      assert.deepEqual(answer.usage, { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16, cost: costOf(11, 5, INPUT, OUTPUT) / 1e6 });
      const sent = upstream.requests.at(-1)!.body;
      assert.equal(sent.system, 'Sys.');
      assert.deepEqual(sent.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
      assert.equal(sent.temperature, 1);
      assert.deepEqual(sent.stop_sequences, ['END']);
      assert.ok(Number.isInteger(sent.max_tokens) && sent.max_tokens > 0, 'Messages requires max_tokens: the cap is sent');

      upstream.behaviour = { toolCall: { id: 'toolu_9', name: 'lookup', arguments: '{"q":"x"}' } };
      const stream = await openai.chat.completions.create({
        model: 'claude-up', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'look' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      });
      let args = '';
      let name = '';
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        const call = chunk.choices[0]?.delta.tool_calls?.[0];
        if (call?.function?.name) name = call.function.name;
        args += call?.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      assert.deepEqual([name, JSON.parse(args), finish], ['lookup', { q: 'x' }, 'tool_calls']);
      assert.deepEqual(usage, { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13, cost: costOf(11, 2, INPUT, OUTPUT) / 1e6 });
      assert.deepEqual(upstream.requests.at(-1)!.body.tools, [{ name: 'lookup', input_schema: { type: 'object' } }]);
    });
  });

  describe('structured output (response_format) on the anthropic channel', () => {
    const schema = { type: 'object', properties: { distance: { type: 'number' }, unit: { type: 'string' } }, required: ['distance', 'unit'], additionalProperties: false };
    const format = { type: 'json_schema' as const, json_schema: { name: 'distance', schema, strict: true } };
    const written = { distance: 42.195, unit: 'km' };
    /** The fake Anthropic upstream calls the tool it is made to call, with the answer as its input. */
    const callsForcedTool = () => {
      upstream.behaviour = (request) => (request.body?.tool_choice?.type === 'tool' ? { toolCall: { id: 'toolu_fmt', name: request.body.tool_choice.name, arguments: JSON.stringify(written) } } : {});
    };

    it("the openai SDK's chat.completions.parse reads the object: the format went up as a tool the model must call, and came back as content", async () => {
      callsForcedTool();
      const answer = await openai.chat.completions.parse({ model: 'claude-up', messages: [{ role: 'user', content: 'How long is a marathon?' }], response_format: format });
      const message = answer.choices[0]!.message;
      assert.deepEqual(message.parsed, written);
      assert.equal(message.content, JSON.stringify(written));
      assert.equal(message.tool_calls?.length ?? 0, 0);
      assert.equal(answer.choices[0]!.finish_reason, 'stop');
      const sent = upstream.requests.at(-1)!.body;
      assert.deepEqual(sent.tools.map((tool: { name: string; input_schema: unknown }) => [tool.name, tool.input_schema]), [['distance', schema]]);
      assert.deepEqual(sent.tool_choice, { type: 'tool', name: 'distance', disable_parallel_tool_use: true });
      assert.equal(sent.response_format, undefined, 'nothing Messages does not know is sent');
    });

    it('streamed: the JSON arrives as content deltas, the SDK\'s stream helper parses the whole; charged as any answer', async () => {
      callsForcedTool();
      const before = Math.max(0, ...(await t.admin().listLogs(1)).map((l) => l.id));
      const stream = openai.chat.completions.stream({ model: 'claude-up', messages: [{ role: 'user', content: 'How long is a marathon?' }], response_format: format, stream_options: { include_usage: true } });
      let deltas = 0;
      stream.on('content.delta', () => deltas++);
      const final = await stream.finalChatCompletion();
      assert.deepEqual(final.choices[0]!.message.parsed, written);
      assert.equal(final.choices[0]!.finish_reason, 'stop');
      assert.ok(deltas >= 2, `the JSON came in ${deltas} content deltas`);
      // Its log row, the one written after it started (the stream helper does not expose the request id).
      const log = (await waitForLog(t.admin(), (l) => l.id > before && l.model === 'claude-up' && l.stream))!;
      assert.equal(log.status, 200);
      assert.ok(log.completionTokens > 0);
      assert.equal(log.cost, costOf(log.promptTokens, log.completionTokens, INPUT, OUTPUT));
    });

    it('the Responses API\'s text.format (Codex, the Responses SDK) goes the same way', async () => {
      callsForcedTool();
      const response = await openai.responses.parse({ model: 'claude-up', input: 'How long is a marathon?', text: { format: { type: 'json_schema', name: 'distance', schema, strict: true } } });
      assert.deepEqual(response.output_parsed, written);
      assert.equal(upstream.requests.at(-1)!.body.tool_choice.name, 'distance');
    });

    it('a format the upstream cannot be asked for is a clear 400, not ignored', async () => {
      const refused = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: { model: 'claude-up', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'list', schema: { type: 'array' } } } } });
      assertError(refused, 400, 'invalid_request');
      assert.match(refused.json.error.message, /a schema of a JSON object/);
      // Audio out and web search are OpenAI's: refused, never answered as if they had been asked of nobody.
      for (const [extra, says] of [[{ modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, /modalities, audio/], [{ web_search_options: {} }, /web_search_options/]] as const) {
        const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: { model: 'claude-up', messages: [{ role: 'user', content: 'x' }], ...extra } });
        assertError(answer, 400, 'invalid_request');
        assert.match(answer.json.error.message, says);
      }
    });
  });

  describe('on an openai channel (converted)', () => {
    it('answers in Messages shape, with the usage mapped and the request converted (system, max_tokens, stop_sequences)', async () => {
      const { data: message, response } = await claude.messages
        .create({ model: 'gpt-up', max_tokens: 64, system: [{ type: 'text', text: 'Sys.' }], stop_sequences: ['END'], messages: [{ role: 'user', content: 'hi' }] })
        .withResponse();
      assert.equal(message.type, 'message');
      assert.equal(message.model, 'gpt-up');
      assert.deepEqual(message.content, [{ type: 'text', text: 'w1 w2 w3' }]);
      assert.equal(message.stop_reason, 'end_turn');
      assert.deepEqual(message.usage, { input_tokens: FAKE_PROMPT_TOKENS, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
      const sent = upstream.requests.at(-1)!;
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers['authorization'], `Bearer ${channelKeys.openai}`);
      assert.deepEqual(sent.body.messages, [{ role: 'system', content: 'Sys.' }, { role: 'user', content: 'hi' }]);
      assert.deepEqual([sent.body.model, sent.body.max_tokens, sent.body.stop], ['gpt-4o', 64, ['END']]);
      assert.equal((await logOf(response.headers.get('x-request-id'))).cost, costOf(FAKE_PROMPT_TOKENS, 3, INPUT, OUTPUT));
      // The SDK reads the request id from Anthropic's own header only.
      assert.equal((message as { _request_id?: string | null })._request_id, response.headers.get('x-request-id'));
      const refused = await claude.messages.create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      assert.ok(refused instanceof NotFoundError && refused.requestID && refused.requestID === (refused.error as { request_id?: string }).request_id, String(refused));
    });

    it('streams: chat chunks become message_start, one text block, message_delta with usage, message_stop', async () => {
      const stream = claude.messages.stream({ model: 'gpt-up', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
      const types: string[] = [];
      stream.on('streamEvent', (event) => types.push(event.type));
      const message = await stream.finalMessage();
      assert.deepEqual(message.content, [{ type: 'text', text: 'w1 w2 w3' }]);
      assert.deepEqual(types, ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      assert.equal(message.usage.output_tokens, 3);
      assert.equal(message.usage.input_tokens, FAKE_PROMPT_TOKENS);
      assert.equal(upstream.requests.at(-1)!.body.stream_options.include_usage, true);
    });

    it('a tool use round trip, streamed: tool_calls become a tool_use block, tool_result goes up as a tool message after its call', async () => {
      upstream.behaviour = { toolCall: { id: 'call_7', name: 'get_weather', arguments: '{"city":"Oslo"}' } };
      const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
      const first = await claude.messages.stream({ model: 'gpt-up', max_tokens: 64, tools, messages: [{ role: 'user', content: 'Oslo?' }] }).finalMessage();
      assert.equal(first.stop_reason, 'tool_use');
      assert.deepEqual(first.content, [{ type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Oslo' } }]);
      assert.deepEqual(upstream.requests.at(-1)!.body.tools, [{ type: 'function', function: { name: 'get_weather', parameters: tools[0]!.input_schema } }]);
      upstream.behaviour = { pieces: ['Cold.'] };
      const second = await claude.messages.create({
        model: 'gpt-up', max_tokens: 64, tools,
        messages: [
          { role: 'user', content: 'Oslo?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: '-3 C' }, { type: 'text', text: 'And tomorrow?' }] },
        ],
      });
      assert.deepEqual(second.content, [{ type: 'text', text: 'Cold.' }]);
      assert.deepEqual(upstream.requests.at(-1)!.body.messages, [
        { role: 'user', content: 'Oslo?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'call_7', content: '-3 C' },
        { role: 'user', content: 'And tomorrow?' },
      ]);
    });

    it("the SDK's tool runner works through the gateway: a message thread is refused as Anthropic refuses one it cannot hold, and the runner sends the whole history", async () => {
      // The SDK's runner threads by default: each turn would send only its new messages, for a history the gateway keeps nowhere.
      upstream.behaviour = (request) => ((request.body as { messages: { role: string }[] }).messages.some((m) => m.role === 'tool') ? { pieces: ['Sunny.'] } : { toolCall: { id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' } });
      const ran: string[] = [];
      const tool = betaZodTool({ name: 'get_weather', description: 'The weather in a city.', inputSchema: z.object({ city: z.string() }), run: async ({ city }) => (ran.push(city), `sunny in ${city}`) });
      const before = upstream.requests.length;
      const final = await claude.beta.messages.toolRunner({ model: 'gpt-up', max_tokens: 200, system: 'You are a weather bot.', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [tool], max_iterations: 3 });
      assert.deepEqual([ran, final.content], [['Paris'], [{ type: 'text', text: 'Sunny.' }]]);
      const second = upstream.requests.slice(before).at(-1)!.body as { messages: { role: string; content?: unknown }[]; tools?: unknown[] };
      assert.deepEqual(second.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool'], 'the whole history, the system prompt first');
      assert.equal(second.tools?.length, 1);
      // A thread of one's own: a clear 400 saying why, in Anthropic's shape with the details its SDK reads.
      const refused = await call(t.gw, 'POST', '/v1/messages', { key: t.key, headers: { 'anthropic-version': '2023-06-01' }, body: { model: 'gpt-up', max_tokens: 8, thread: { type: 'create' }, messages: [{ role: 'user', content: 'x' }] } });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.json.error.details, { error_code: 'thread_unsupported_request', unsupported: ['thread'] });
      assert.match(refused.json.error.message, /keeps no message threads/);
    });

    it("structured output (output_config.format, what the SDK's parse() sends) goes up as response_format json_schema; the SDK parses the answer", async () => {
      upstream.behaviour = { pieces: ['{"name":"Ann",', '"age":3}'] };
      const person = z.object({ name: z.string(), age: z.number() });
      const parsed = await claude.messages.parse({ model: 'gpt-up', max_tokens: 200, messages: [{ role: 'user', content: 'Ann, 3' }], output_config: { format: zodOutputFormat(person) } });
      assert.deepEqual(parsed.parsed_output, { name: 'Ann', age: 3 });
      const sent = upstream.requests.at(-1)!.body as { response_format?: { type: string; json_schema: { name: string; schema: { properties: object } } } };
      assert.equal(sent.response_format?.type, 'json_schema');
      assert.deepEqual(Object.keys(sent.response_format!.json_schema.schema.properties), ['name', 'age']);
    });

    it("Anthropic's MCP connector cannot run on an OpenAI-style upstream: a clear 400, not tools silently gone", async () => {
      await assert.rejects(
        claude.beta.messages.create({ model: 'gpt-up', max_tokens: 8, betas: ['mcp-client-2025-04-04'], mcp_servers: [{ type: 'url', url: 'https://example.com/mcp', name: 'x' }], messages: [{ role: 'user', content: 'x' }] }),
        (e: unknown) => e instanceof Anthropic.BadRequestError && /mcp_servers/.test((e as Error).message),
      );
    });

    it('a server tool the OpenAI-style upstream cannot run is a clear 400, not a silent drop', async () => {
      await assert.rejects(
        claude.messages.create({ model: 'gpt-up', max_tokens: 64, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'x' }] }),
        (e: unknown) => e instanceof Anthropic.BadRequestError && /web_search_20250305/.test((e as Error).message),
      );
    });
  });

  describe('on the echo model', () => {
    it('answers and streams offline, and calls a tool when asked', async () => {
      const plain = await claude.messages.create({ model: 'echo', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] });
      assert.deepEqual(plain.content, [{ type: 'text', text: 'You said: hello' }]);
      const streamed = await claude.messages.stream({ model: 'echo', max_tokens: 64, messages: [{ role: 'user', content: 'hello again' }] }).finalMessage();
      assert.deepEqual(streamed.content, [{ type: 'text', text: 'You said: hello again' }]);
      const tools = [{ name: 'read_file', input_schema: { type: 'object' as const } }];
      const called = await claude.messages.stream({ model: 'echo', max_tokens: 64, tools, messages: [{ role: 'user', content: 'call read_file {"path":"a.ts"}' }] }).finalMessage();
      assert.equal(called.stop_reason, 'tool_use');
      const use = called.content.find((b) => b.type === 'tool_use');
      assert.ok(use && use.type === 'tool_use');
      assert.deepEqual([use.name, use.input], ['read_file', { path: 'a.ts' }]);
      const answered = await claude.messages.create({
        model: 'echo', max_tokens: 64, tools,
        messages: [
          { role: 'user', content: 'call read_file {"path":"a.ts"}' },
          { role: 'assistant', content: called.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'export {}' }] },
        ],
      });
      assert.deepEqual(answered.content, [{ type: 'text', text: 'Tool read_file returned: export {}' }]);
    });
  });

  describe('count_tokens, keys and errors', () => {
    it('count_tokens answers free, unlogged, and outside the key rate limit', async () => {
      const admin = t.admin();
      const { secret } = await createKey(admin, { account: 'local', name: 'one-per-minute', rpm: 1 });
      const limited = anthropicOn(t, { apiKey: secret });
      for (let i = 0; i < 5; i++) {
        const counted = await limited.messages.countTokens({ model: 'claude-up', system: 'Sys.', messages: [{ role: 'user', content: 'count these words please' }] });
        assert.ok(counted.input_tokens > 0);
      }
      await limited.messages.create({ model: 'echo', max_tokens: 8, messages: [{ role: 'user', content: 'still allowed' }] });
      await assert.rejects(limited.messages.create({ model: 'echo', max_tokens: 8, messages: [{ role: 'user', content: 'now limited' }] }), RateLimitError);
      await waitForLog(admin, (l) => l.keyName === 'one-per-minute' && l.status === 429);
      const logs = (await admin.listLogs(500)).filter((l) => l.keyName === 'one-per-minute');
      assert.deepEqual(logs.map((l) => [l.path, l.status]).sort(), [['/v1/messages', 200], ['/v1/messages', 429]]);
    });

    it('the SDK\'s models.list() and models.retrieve() read the models this key may use, in Anthropic\'s shape', async () => {
      const listed: string[] = [];
      for await (const model of claude.models.list()) {
        assert.equal(model.type, 'model');
        assert.ok(!Number.isNaN(Date.parse(model.created_at)), model.created_at);
        listed.push(model.id);
      }
      assert.ok(listed.includes('echo') && listed.includes('claude-up'), listed.join(', '));
      const page = await claude.models.list();
      assert.deepEqual([page.has_more, page.first_id, page.last_id], [false, listed[0], listed.at(-1)]);
      // Pages of two, as the SDK asks with limit: the same models, in the same order, across its pages.
      const paged: string[] = [];
      for await (const model of claude.models.list({ limit: 2 })) paged.push(model.id);
      assert.deepEqual(paged, listed);
      const first = await claude.models.list({ limit: 2 });
      assert.deepEqual([first.data.length, first.has_more], [2, true]);
      const back = await claude.models.list({ limit: 1, before_id: listed[2]! });
      assert.deepEqual(back.data.map((m) => m.id), [listed[1]], 'before an id: the nearest before it');
      const one = await claude.models.retrieve('claude-up');
      assert.deepEqual([one.id, one.type, one.display_name], ['claude-up', 'model', 'claude-up']);
      await assert.rejects(claude.models.retrieve('no-such-model'), NotFoundError);
    });

    it('authenticates with x-api-key or a Bearer token, and the SDK raises its own error classes on 401, 403 and 404', async () => {
      const bearer = anthropicOn(t, { authToken: t.key, apiKey: null });
      assert.equal((await bearer.messages.create({ model: 'echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })).type, 'message');
      const wrong = anthropicOn(t, { apiKey: 'sk-wrong' });
      await assert.rejects(wrong.messages.create({ model: 'echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => {
        assert.ok(e instanceof AuthenticationError);
        assert.equal((e.error as { error: { type: string; code: string } }).error.type, 'authentication_error');
        assert.equal((e.error as { error: { code: string } }).error.code, 'invalid_api_key');
        return true;
      });
      const keyless = await call(t.gw, 'POST', '/v1/messages', { body: { model: 'echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] } });
      assert.equal(keyless.status, 401);
      assert.match(keyless.json.error.message, /no API key was sent.*Anthropic clients send it as "x-api-key: <API_KEY>"/);
      await assert.rejects(claude.messages.create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), NotFoundError);
      const { secret } = await createKey(t.admin(), { account: 'local', name: 'echo-only', models: ['echo'] });
      const narrow = anthropicOn(t, { apiKey: secret });
      await assert.rejects(narrow.messages.create({ model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), PermissionDeniedError);
      await assert.rejects(narrow.messages.countTokens({ model: 'claude-up', messages: [{ role: 'user', content: 'x' }] }), PermissionDeniedError);
    });

    it('an account that cannot pay: 403 permission_error, and the balance untouched', async () => {
      const admin = t.admin();
      await admin.createAccount('empty', 0);
      const { secret } = await createKey(admin, { account: 'empty', name: 'empty-key' });
      const poor = anthropicOn(t, { apiKey: secret });
      await assert.rejects(poor.messages.create({ model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => {
        assert.ok(e instanceof PermissionDeniedError);
        assert.equal((e.error as { error: { code: string } }).error.code, 'insufficient_balance');
        return true;
      });
      assert.equal((await admin.getAccount('empty'))!.balance, 0);
    });

    it('an upstream 429 on every channel is the SDK RateLimitError, in Anthropic shape', async () => {
      upstream.behaviour = { status: 429, retryAfter: '3' };
      await assert.rejects(claude.messages.create({ model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => {
        assert.ok(e instanceof RateLimitError);
        assert.equal(e.headers?.get('retry-after'), '3');
        assert.equal((e.error as { error: { type: string; code: string } }).error.type, 'rate_limit_error');
        return true;
      });
    });
  });
});
