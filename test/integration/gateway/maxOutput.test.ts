// A model's maximum output tokens (model price --max-output): Claude Code sends max_tokens 32000 on every
// request, and a model that writes at most 16,384 (gpt-4o) has its upstream refuse that with a 400 the user
// cannot fix. The fake upstream here refuses as those providers do; the gateway lowers every larger cap to
// the model's maximum on every endpoint (chat's max_tokens and max_completion_tokens, completions, Messages
// with its thinking budget, Responses converted and passed through), says so (X-Gateway-Max-Tokens, the
// log's completion cap), leaves a smaller cap alone, and holds money for the lowered cap only.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createKey } from '../../../src/gateway/admin.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { newChannel } from '../../support/channels.ts';
import type { FakeRequest, FakeUpstream } from '../../support/fakeUpstream.ts';
import { anthropicOn, chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

const MAX_OUTPUT = 16_384;
const INPUT = 1_000_000;
const OUTPUT = 10_000_000;

/** The cap the upstream was sent, in whichever field its format has it. */
function sentCap(body: Record<string, unknown>): number | undefined {
  return (body['max_tokens'] ?? body['max_completion_tokens'] ?? body['max_output_tokens']) as number | undefined;
}

/** What OpenAI, DeepSeek and Anthropic answer to a cap above the model's output (and a thinking budget not below the cap). */
function refuseTooLarge(request: FakeRequest) {
  const body = request.body as Record<string, unknown>;
  const cap = sentCap(body);
  const budget = (body['thinking'] as { budget_tokens?: number } | undefined)?.budget_tokens;
  if (cap !== undefined && cap > MAX_OUTPUT) return { status: 400, errorMessage: `max_tokens is too large: ${cap}. This model supports at most ${MAX_OUTPUT} completion tokens.` };
  if (cap !== undefined && budget !== undefined && budget >= cap) return { status: 400, errorMessage: '`max_tokens` must be greater than `thinking.budget_tokens`.' };
  return {};
}

describe("a model's maximum output: larger caps are lowered to it", () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'oai', baseUrl: upstream.url, models: { 'gpt-4o': 'gpt-4o', 'gpt-3.5-turbo-instruct': 'gpt-3.5-turbo-instruct' } }));
    await admin.addChannel(newChannel({ name: 'oai-responses', baseUrl: upstream.url, responsesApi: true, models: { 'gpt-4o-responses': 'gpt-4o' } }));
    await admin.addChannel(newChannel({ name: 'ant', type: 'anthropic', baseUrl: upstream.url, models: { 'claude-capped': 'claude-sonnet-4-5' } }));
    for (const name of ['gpt-4o', 'gpt-4o-responses', 'claude-capped']) await admin.setModel(chatModel(name, INPUT, OUTPUT, { contextLength: 128_000, maxOutputTokens: MAX_OUTPUT }));
    await admin.setModel({ ...chatModel('gpt-3.5-turbo-instruct', INPUT, OUTPUT, { maxOutputTokens: MAX_OUTPUT }), kind: 'completion' });
  });
  let t: Started;
  let upstream: FakeUpstream;
  let openai: OpenAI;
  let claude: Anthropic;
  before(() => {
    ({ t, upstream, openai, claude } = suite);
  });
  beforeEach(() => {
    upstream.behaviour = refuseTooLarge;
  });

  /** What the answer says (header), the log records and the upstream got. */
  const capsOf = async (response: Response) => {
    const log = await logOfRequest(t.admin(), response.headers.get('x-request-id'));
    const sent = upstream.requests.at(-1)!.body as Record<string, unknown>;
    return { header: response.headers.get('x-gateway-max-tokens'), logged: log.completionCap ?? null, sent: sentCap(sent), status: log.status };
  };
  const lowered = { header: String(MAX_OUTPUT), logged: MAX_OUTPUT, sent: MAX_OUTPUT, status: 200 };

  it('GET /v1/models says it (max_output_tokens), for the models that have one', async () => {
    const listed = new Map((await openai.models.list()).data.map((m) => [m.id, m as unknown as Record<string, unknown>]));
    assert.deepEqual([listed.get('gpt-4o')!['max_output_tokens'], listed.get('gpt-4o')!['context_length']], [MAX_OUTPUT, 128_000]);
    assert.equal('max_output_tokens' in listed.get('echo')!, false);
    const one = (await claude.models.retrieve('claude-capped')) as unknown as Record<string, unknown>;
    assert.equal(one['max_output_tokens'], MAX_OUTPUT);
  });

  it('Messages (Claude Code\'s max_tokens 32000): reaches the upstream with the maximum, and answers', async () => {
    const { data: message, response } = await claude.messages.create({ model: 'claude-capped', max_tokens: 32_000, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual(await capsOf(response), lowered);
    assert.equal(upstream.requests.at(-1)!.path, '/v1/messages');
  });

  it('Messages with thinking: the budget goes below the lowered cap', async () => {
    upstream.behaviour = (request) => ({ ...refuseTooLarge(request), thinking: 'Let me think.' });
    const { data: message, response } = await claude.messages.create({
      model: 'claude-capped', max_tokens: 32_000, thinking: { type: 'enabled', budget_tokens: 31_999 }, messages: [{ role: 'user', content: 'hi' }],
    }).withResponse();
    assert.deepEqual(message.content.map((b) => b.type), ['thinking', 'text']);
    assert.deepEqual(await capsOf(response), lowered);
    assert.deepEqual(upstream.requests.at(-1)!.body.thinking, { type: 'enabled', budget_tokens: MAX_OUTPUT - 1 });
  });

  it('Messages, streamed: the same cap', async () => {
    const stream = claude.messages.stream({ model: 'claude-capped', max_tokens: 32_000, messages: [{ role: 'user', content: 'hi' }] });
    const { response } = await stream.withResponse();
    assert.equal((await stream.finalMessage()).stop_reason, 'end_turn');
    assert.deepEqual(await capsOf(response), lowered);
  });

  it('chat completions: max_tokens and max_completion_tokens above it, streamed and not', async () => {
    for (const field of ['max_tokens', 'max_completion_tokens'] as const) {
      const { data: answer, response } = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], [field]: 32_000 }).withResponse();
      assert.equal(answer.choices[0]!.finish_reason, 'stop');
      assert.deepEqual(await capsOf(response), lowered, field);
      assert.equal(upstream.requests.at(-1)!.body[field], MAX_OUTPUT, `${field} is the field lowered`);
    }
    const { data: stream, response } = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 32_000, stream: true }).withResponse();
    for await (const chunk of stream) void chunk;
    assert.deepEqual(await capsOf(response), lowered);
  });

  it('completions: max_tokens above it', async () => {
    const { data: answer, response } = await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'hi', max_tokens: 32_000 }).withResponse();
    assert.equal(answer.object, 'text_completion');
    assert.deepEqual(await capsOf(response), lowered);
  });

  it("Responses: max_output_tokens above it, converted to chat and passed through to a Responses upstream", async () => {
    for (const model of ['gpt-4o', 'gpt-4o-responses']) {
      const { data: answer, response } = await openai.responses.create({ model, input: 'hi', max_output_tokens: 32_000 }).withResponse();
      assert.equal(answer.status, 'completed', model);
      assert.deepEqual(await capsOf(response), lowered, model);
    }
    assert.equal(upstream.requests.at(-1)!.path, '/v1/responses');
    assert.equal(upstream.requests.at(-1)!.body.max_output_tokens, MAX_OUTPUT);
  });

  it('a cap below the maximum is untouched and not flagged; the maximum itself too', async () => {
    for (const cap of [1000, MAX_OUTPUT]) {
      const { response } = await claude.messages.create({ model: 'claude-capped', max_tokens: cap, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      assert.deepEqual(await capsOf(response), { header: null, logged: null, sent: cap, status: 200 });
    }
    const { response } = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 }).withResponse();
    assert.deepEqual(await capsOf(response), { header: null, logged: null, sent: 1000, status: 200 });
  });

  it('no cap asked: the default (8,192) is below the maximum and goes as before', async () => {
    const { response } = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    assert.deepEqual(await capsOf(response), { header: '8192', logged: 8192, sent: 8192, status: 200 });
  });

  describe('the money held is sized by the lowered cap', () => {
    it('an account that can pay 16,384 tokens but not 32,000 is served at the maximum (the balance alone would have sent more than the model takes)', async () => {
      const admin = t.admin();
      // About 25,000 output tokens' worth: lowered by the balance alone, the cap would be past the model's maximum.
      await admin.createAccount('thin', costOf(2000, 25_000, INPUT, OUTPUT));
      const { secret } = await createKey(admin, { account: 'thin', name: 'thin-key' });
      const thin = anthropicOn(t, { apiKey: secret });
      const { data: message, response } = await thin.messages.create({ model: 'claude-capped', max_tokens: 32_000, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      assert.equal(message.stop_reason, 'end_turn');
      assert.deepEqual(await capsOf(response), lowered);
    });

    it("a request in flight holds the maximum's worth, not the cap it asked for: a second one is served at the maximum too", async () => {
      const admin = t.admin();
      // Two requests at the maximum, with their prompts; not one at 32,000 and another at the maximum.
      await admin.createAccount('pair', 2 * costOf(2000, MAX_OUTPUT, INPUT, OUTPUT));
      const { secret } = await createKey(admin, { account: 'pair', name: 'pair-key' });
      const pair = new OpenAI({ apiKey: secret, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
      upstream.behaviour = (request) => ({ ...refuseTooLarge(request), gated: true });
      const before = upstream.requests.length;
      const body = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 32_000 };
      const { data: first, response: firstResponse } = await pair.chat.completions.create({ ...body, stream: true }).withResponse();
      await upstream.received(before + 1);
      try {
        const { response } = await pair.chat.completions.create(body).withResponse();
        assert.deepEqual(await capsOf(response), lowered, 'the second, while the first holds its reservation');
      } finally {
        upstream.release(100);
      }
      for await (const chunk of first) void chunk;
      assert.equal(firstResponse.headers.get('x-gateway-max-tokens'), String(MAX_OUTPUT));
    });
  });
});
