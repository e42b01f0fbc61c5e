// A stream that breaks after its first byte must end with an SSE error event and never [DONE].
import assert from 'node:assert/strict';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { post, SseReader, startHarness, type Harness } from './harness.ts';

const ask = { model: 'm', stream: true, messages: [{ role: 'user', content: 'hello' }] };

describe('relay: broken streams', () => {
  let fake: FakeUpstream;
  let spare: FakeUpstream;
  let harness: Harness;

  beforeEach(async () => {
    fake = await startFakeUpstream();
    spare = await startFakeUpstream();
    harness = await startHarness({
      channels: [
        { baseUrl: fake.url, priority: 1, timeoutMs: 300 },
        { baseUrl: spare.url, priority: 0 },
      ],
    });
  });
  afterEach(async () => {
    await harness.close();
    await fake.close();
    await spare.close();
  });

  const cases: Array<[string, FakeBehaviour, string]> = [
    ['the connection is reset', { breakAfter: 2, breakWith: 'reset' }, 'upstream_error'],
    ['the stream ends without [DONE]', { breakAfter: 2, breakWith: 'end' }, 'upstream_error'],
    ['the upstream sends an error event', { breakAfter: 2, breakWith: 'error' }, 'upstream_error'],
    ['the upstream goes silent', { breakAfter: 2, breakWith: 'stall' }, 'upstream_timeout'],
    ['a finished answer without its usage or [DONE]', { noDone: true, omitUsage: true }, 'upstream_error'],
  ];
  for (const [name, behaviour, code] of cases) {
    it(`${name}: error event with code ${code}, no [DONE], no failover`, async () => {
      // Gated: the break comes only once the client holds what came before it (a TCP reset
      // would otherwise discard unread bytes, and the relay would rightly fail over instead).
      fake.behaviour = { ...behaviour, pieces: ['one', ' two', ' three'], gated: true };
      const response = await post(harness, ask);
      const reader = new SseReader(response);
      for (const seen of ['one', 'two', 'three']) {
        await reader.until(() => reader.content().includes(seen) || reader.ended);
        fake.release();
      }
      const data = await reader.all();
      assert.ok(!data.includes('[DONE]'), 'a broken stream must not look finished');
      const last = JSON.parse(data.at(-1)!);
      assert.equal(last.error.code, code);
      assert.equal(last.error.type, 'model_gateway_error');
      assert.ok(last.error.message.endsWith(`(request id: ${response.headers.get('x-request-id')})`), 'the message ends with the request id');
      assert.ok(reader.content().startsWith('one two'));
      const log = await harness.log(1);
      assert.equal(log.errorCode, code);
      assert.equal(log.channel, harness.channels[0]!.name);
      assert.ok(log.completionTokens > 0, 'what was generated is reported');
      assert.equal(spare.requests.length, 0, 'no failover after the first byte');
    });
  }

  it('an answer with its finish reason and usage that lacks only [DONE] is complete: [DONE] for the client, a success, its usage charged', async () => {
    fake.behaviour = { noDone: true, pieces: ['one', ' two', ' three'] };
    const response = await post(harness, ask);
    const reader = new SseReader(response);
    const data = await reader.all();
    assert.equal(data.at(-1), '[DONE]');
    assert.ok(!data.some((d) => d.includes('"error"')));
    assert.equal(reader.content(), 'one two three');
    const log = await harness.log(1);
    assert.deepEqual([log.status, log.errorCode, log.completionTokens, log.usageEstimated], [200, null, 3, false]);
  });
});
