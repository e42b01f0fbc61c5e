// Streamed answers through the relay: pass-through, usage, model names, and no buffering.
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { post, SseReader, startHarness, type Harness } from './harness.ts';

const ask = (extra: object = {}) => ({ model: 'platform-m', stream: true, messages: [{ role: 'user', content: 'hello' }], ...extra });

describe('relay: streamed answers', () => {
  let fake: FakeUpstream;
  let harness: Harness;

  beforeEach(async () => {
    fake = await startFakeUpstream();
    harness = await startHarness({ channels: [{ baseUrl: fake.url, models: { 'platform-m': 'up-m' } }] });
  });
  afterEach(async () => {
    await harness.close();
    await fake.close();
  });

  it('asks the upstream for usage and drops the usage chunk the client did not ask for', async () => {
    fake.behaviour = { pieces: ['a', 'b', 'c'], answerModel: 'up-m-2025' };
    const response = await post(harness, ask({ tools: [{ type: 'function', function: { name: 't' } }], stream_options: { vendor_flag: 1 } }));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const data = await new SseReader(response).all();
    assert.equal(data.at(-1), '[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    assert.ok(chunks.every((c) => c.model === 'platform-m'));
    assert.ok(chunks.every((c) => !c.usage), 'no usage reached a client that did not ask');
    assert.equal(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), 'abc');

    const sent = fake.requests[0]!.body;
    assert.equal(sent.model, 'up-m');
    assert.deepEqual(sent.stream_options, { vendor_flag: 1, include_usage: true });
    assert.deepEqual(sent.tools, [{ type: 'function', function: { name: 't' } }]);
    const log = await harness.log(1);
    assert.equal(log.errorCode, null);
    assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [FAKE_PROMPT_TOKENS, 3, false]);
  });

  it('passes the usage chunk on when the client asked for it', async () => {
    const data = await new SseReader(await post(harness, ask({ stream_options: { include_usage: true } }))).all();
    const usage = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d)).filter((c) => c.usage);
    assert.equal(usage.length, 1);
    assert.deepEqual(usage[0].choices, []);
    assert.equal(usage[0].model, 'platform-m');
    assert.equal(usage[0].usage.completion_tokens, 3);
  });

  it('estimates usage when the upstream sends none, and flags it', async () => {
    fake.behaviour = { omitUsage: true, pieces: ['12345678', '1234'] };
    const data = await new SseReader(await post(harness, ask({ stream_options: { include_usage: true } }))).all();
    assert.equal(data.at(-1), '[DONE]');
    const log = await harness.log(1);
    assert.equal(log.errorCode, null);
    assert.equal(log.usageEstimated, true);
    assert.equal(log.completionTokens, 3);
    assert.ok(log.promptTokens > 0);
  });

  it('copes with CRLF line ends, comments and events split anywhere (inside UTF-8 characters too)', async () => {
    fake.behaviour = { pieces: ['héllo ', '世界', ' 👋🏽'], eol: '\r\n', comments: true, fragmentBytes: 3 };
    const reader = new SseReader(await post(harness, ask()));
    await reader.all();
    assert.equal(reader.data.at(-1), '[DONE]');
    assert.equal(reader.content(), 'héllo 世界 👋🏽');
  });

  it('does not buffer: the client has chunk k before the upstream sends chunk k+1', async () => {
    // The upstream waits for the test's release() before each next chunk: a relay that held
    // chunks back would leave the test waiting for ever (mocha's timeout fails it).
    const n = 5;
    fake.behaviour = { gated: true, pieces: Array.from({ length: n }, (_, i) => `<${i + 1}>`) };
    const reader = new SseReader(await post(harness, ask()));
    for (let k = 1; k <= n; k++) {
      await reader.until(() => reader.content().includes(`<${k}>`));
      assert.ok(reader.content().endsWith(`<${k}>`), `chunk ${k} arrived alone`);
      if (k < n) fake.release();
    }
    await reader.all();
    assert.equal(reader.data.at(-1), '[DONE]');
  }).timeout(5000);
});
