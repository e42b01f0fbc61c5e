// Every relayed endpoint against the same misbehaving upstreams, so none is left with only its happy
// path: failover to the next channel (charged exactly, once), every channel rate limited or silent,
// a key without the model, an account that cannot pay, an unknown model, and (for text kinds) a
// stream whose upstream reports no usage, which is charged an estimate, never zero.
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { assertAnthropicError, assertError, type Answer } from '../../support/answer.ts';
import { newChannel } from '../../support/channels.ts';
import { FAKE_PROMPT_TOKENS, type FakeBehaviour, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

const IN = 1_000_000;
const OUT = 2_000_000;
const PER_IMAGE = 30_000;
const MAIN_KEY = 'sk-main-upstream';

interface EndpointCase {
  readonly path: string;
  readonly model: string;
  body(model: string, stream?: boolean): object;
  /** What the fake's answer costs (it reports 11 prompt tokens and one completion token per piece, three pieces). */
  readonly cost: number;
  readonly streams: boolean;
  readonly anthropicErrors?: boolean;
}

const text = (prompt: string) => [{ role: 'user', content: prompt }];
const CASES: readonly EndpointCase[] = [
  { path: '/v1/chat/completions', model: 'm-chat', body: (model, stream) => ({ model, messages: text('hi'), stream }), cost: costOf(FAKE_PROMPT_TOKENS, 3, IN, OUT), streams: true },
  { path: '/v1/messages', model: 'm-chat', body: (model, stream) => ({ model, max_tokens: 50, messages: text('hi'), stream }), cost: costOf(FAKE_PROMPT_TOKENS, 3, IN, OUT), streams: true, anthropicErrors: true },
  { path: '/v1/responses', model: 'm-chat', body: (model, stream) => ({ model, input: 'hi', stream }), cost: costOf(FAKE_PROMPT_TOKENS, 3, IN, OUT), streams: true },
  { path: '/v1/completions', model: 'm-complete', body: (model, stream) => ({ model, prompt: 'def f(', suffix: ')', stream }), cost: costOf(FAKE_PROMPT_TOKENS, 3, IN, OUT), streams: true },
  { path: '/v1/embeddings', model: 'm-embed', body: (model) => ({ model, input: ['a', 'b'] }), cost: costOf(FAKE_PROMPT_TOKENS, 0, IN, 0), streams: false },
  { path: '/v1/images/generations', model: 'm-image', body: (model) => ({ model, prompt: 'a square', n: 2 }), cost: 2 * PER_IMAGE, streams: false },
];

describe('every endpoint, failure by failure', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    const models = { 'm-chat': 'up-chat', 'm-complete': 'up-complete', 'm-embed': 'up-embed', 'm-image': 'up-image' };
    await admin.addChannel(newChannel({ name: 'main', baseUrl: upstream.url, apiKey: MAIN_KEY, priority: 1, timeoutMs: 200, models }));
    await admin.addChannel(newChannel({ name: 'backup', baseUrl: upstream.url, timeoutMs: 200, models }));
    await admin.setModel(chatModel('m-chat', IN, OUT));
    await admin.setModel(chatModel('m-complete', IN, OUT, { kind: 'completion' }));
    await admin.setModel(chatModel('m-embed', IN, 0, { kind: 'embedding' }));
    await admin.setModel(chatModel('m-image', 0, 0, { kind: 'image', imagePrice: PER_IMAGE }));
    await admin.createAccount('broke', 0);
    await admin.createAccount('rich', 100_000_000);
    // Each test makes the main channel fail anew: no circuit breaker carrying one test's failures into the next.
  }, { breakerFailures: 0 });
  let t: Started;
  let upstream: FakeUpstream;
  let broke: string;
  let otherModelOnly: string;
  before(async () => {
    ({ t, upstream } = suite);
    broke = (await createKey(t.admin(), { account: 'broke', name: 'broke-key' })).secret;
    otherModelOnly = (await createKey(t.admin(), { account: 'rich', name: 'echo-only', models: ['echo'] })).secret;
  });

  /** The main channel fails as `failure` says; `backup` is told apart by its key. */
  const mainFails = (failure: FakeBehaviour, backup: FakeBehaviour = {}) => {
    upstream.behaviour = (request) => (request.headers.authorization === `Bearer ${MAIN_KEY}` ? failure : backup);
  };
  const errorOf = (c: EndpointCase) => (c.anthropicErrors ? assertAnthropicError : assertError);
  const send = (c: EndpointCase, options: { key?: string; model?: string; stream?: boolean } = {}): Promise<Answer> =>
    call(t.gw, 'POST', c.path, { key: options.key ?? t.key, body: c.body(options.model ?? c.model, options.stream) });

  for (const c of CASES) {
    describe(`POST ${c.path}`, () => {
      it('the main channel fails (500): the backup serves it, charged exactly once', async () => {
        mainFails({ status: 500 });
        const answer = await send(c);
        assert.equal(answer.status, 200, answer.text);
        const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
        assert.deepEqual([log.channel, log.cost, log.usageEstimated], ['backup', c.cost, false]);
        assert.deepEqual(upstream.requests.slice(-2).map((r) => r.headers.authorization === `Bearer ${MAIN_KEY}`), [true, false]);
      });

      it('every channel rate limited: 429 upstream_rate_limited with Retry-After, nothing charged', async () => {
        upstream.behaviour = { status: 429, retryAfter: '7' };
        const answer = await send(c);
        errorOf(c)(answer, 429, 'upstream_rate_limited');
        assert.equal(answer.headers.get('retry-after'), '7');
        assert.equal((await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).cost, 0);
      });

      it('every channel silent past its timeout: 503 upstream_timeout', async () => {
        upstream.behaviour = { hang: 'headers' };
        errorOf(c)(await send(c), 503, 'upstream_timeout');
      });

      it('a key without the model: 403 model_not_permitted; an account that cannot pay: 403 insufficient_balance; an unknown model: 404', async () => {
        const sentBefore = upstream.requests.length;
        errorOf(c)(await send(c, { key: otherModelOnly }), 403, 'model_not_permitted');
        errorOf(c)(await send(c, { key: broke }), 403, 'insufficient_balance');
        errorOf(c)(await send(c, { model: 'no-such-model' }), 404, 'model_not_found');
        assert.equal(upstream.requests.length, sentBefore, 'none of them reaches an upstream');
      });

      if (c.streams) {
        it('a stream whose upstream reports no usage: charged an estimate of what it streamed, marked so, never zero', async () => {
          upstream.behaviour = { omitUsage: true };
          const answer = await send(c, { stream: true });
          assert.equal(answer.status, 200, answer.text);
          const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
          assert.equal(log.usageEstimated, true);
          assert.ok(log.completionTokens > 0 && log.promptTokens > 0 && log.cost > 0, JSON.stringify(log));
        });

        it('a stream that fails before its first byte fails over too', async () => {
          mainFails({ status: 503 });
          const answer = await send(c, { stream: true });
          assert.equal(answer.status, 200, answer.text);
          assert.equal((await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).channel, 'backup');
        });
      }
    });
  }
});
