// The relay behind the real gateway (server.ts): failover, upstream 400, a broken stream as the
// official openai SDK sees it, and estimated usage in the request log.
import assert from 'node:assert/strict';
import OpenAI, { APIError, BadRequestError } from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, startTestGateway, waitForLog, type Started } from '../gateway/helpers.ts';
import { assertError } from '../../support/answer.ts';

describe('relay through the gateway', () => {
  let t: Started;
  let primary: FakeUpstream;
  let backup: FakeUpstream;
  let sdk: OpenAI;

  before(async () => {
    t = await startTestGateway();
    primary = await startFakeUpstream();
    backup = await startFakeUpstream();
    const admin = t.admin();
    await addChannelPricedFree(admin, newChannel({ name: 'primary', baseUrl: primary.url, apiKey: 'k1', models: { relayed: 'up-a' }, priority: 10 }));
    await addChannelPricedFree(admin, newChannel({ name: 'backup', baseUrl: backup.url, apiKey: 'k2', models: { relayed: 'up-b' }, priority: 1 }));
    sdk = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
  });
  beforeEach(() => {
    primary.behaviour = {};
    backup.behaviour = {};
  });
  after(async () => {
    await t.close();
    await primary.close();
    await backup.close();
  });

  async function logOf(requestId: string) {
    const log = await waitForLog(t.admin(), (l) => l.requestId === requestId);
    assert.ok(log, `a log row for ${requestId}`);
    return log;
  }

  it('fails over from a 503 primary to the backup, which gets its own model name', async () => {
    primary.behaviour = { status: 503 };
    const before = backup.requests.length;
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('relayed') });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.model, 'relayed');
    assert.equal(backup.requests[before]!.body.model, 'up-b');
    assert.equal(backup.requests[before]!.headers.authorization, 'Bearer k2');
    assert.equal((await logOf(answer.headers.get('x-request-id')!)).channel, 'backup');
  });

  it("an upstream 400 reaches the client as a 400 with the upstream's message, our type and code", async () => {
    primary.behaviour = { status: 400, errorMessage: 'max_tokens is too large for this model' };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('relayed') });
    assertError(answer, 400, 'invalid_request');
    assert.ok(answer.json.error.message.includes('max_tokens is too large for this model'));
    await assert.rejects(
      sdk.chat.completions.create({ model: 'relayed', messages: [{ role: 'user', content: 'x' }] }),
      (e: unknown) => e instanceof BadRequestError && e.code === 'invalid_request',
    );
  });

  it('an upstream 422 or 409 keeps its status (the log too), with our type and code; nothing is charged and nothing fails over', async () => {
    for (const status of [422, 409]) {
      const sentBefore = backup.requests.length;
      primary.behaviour = { status, errorMessage: `upstream says ${status}` };
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('relayed') });
      assertError(answer, status, 'invalid_request');
      assert.ok(answer.json.error.message.includes(`upstream says ${status}`));
      const log = await logOf(answer.headers.get('x-request-id')!);
      assert.deepEqual([log.status, log.errorCode, log.cost], [status, 'invalid_request', 0]);
      assert.equal(backup.requests.length, sentBefore, 'every channel would refuse it too');
    }
  });

  it("an upstream message that echoes the channel's key reaches the client redacted", async () => {
    primary.behaviour = { status: 400, errorMessage: 'bad request from key k1-upstream (Authorization: Bearer k1); see sk-proj-ABCDEF123456' };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('relayed') });
    assertError(answer, 400, 'invalid_request');
    assert.doesNotMatch(answer.text, /sk-proj-ABCDEF123456|Bearer k1/);
    assert.match(answer.json.error.message, /\*\*\*\*/);
  });

  it('a stream that breaks midway is an error to the openai SDK, never a finished answer', async () => {
    primary.behaviour = { pieces: ['one', ' two', ' three'], breakAfter: 2, breakWith: 'error' };
    const stream = await sdk.chat.completions.create({ model: 'relayed', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })(),
      (e: unknown) => e instanceof APIError,
    );
    assert.equal(text, 'one two');
  });

  it('a stream without usage is logged with estimated usage', async () => {
    primary.behaviour = { omitUsage: true, pieces: ['abcd', 'efgh'] };
    const response = await fetch(`${t.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('relayed', 'hello', { stream: true })),
    });
    const text = await response.text();
    assert.ok(text.trimEnd().endsWith('data: [DONE]'));
    const log = await logOf(response.headers.get('x-request-id')!);
    assert.equal(log.usageEstimated, true);
    assert.equal(log.completionTokens, 2);
    assert.equal(log.channel, 'primary');
    assert.equal(log.stream, true);
  });
});
