// A client that disconnects aborts the upstream request, and what was generated is reported.
import assert from 'node:assert/strict';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { post, SseReader, startHarness, type Harness } from './harness.ts';

describe('relay: client disconnect', () => {
  let fake: FakeUpstream;
  let harness: Harness;

  beforeEach(async () => {
    fake = await startFakeUpstream();
    harness = await startHarness({ channels: [{ baseUrl: fake.url }] });
  });
  afterEach(async () => {
    await harness.close();
    await fake.close();
  });

  it('mid-stream: the upstream sees its request closed; usage so far is reported (estimated)', async () => {
    fake.behaviour = { gated: true, pieces: ['abcd', 'efgh', 'ijkl', 'mnop'], omitUsage: true };
    const controller = new AbortController();
    const reader = new SseReader(await post(harness, { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }, controller.signal));
    await reader.until(() => reader.content().includes('abcd'));
    fake.release();
    await reader.until(() => reader.content().includes('efgh'));
    controller.abort();
    assert.equal(await fake.requests[0]!.closed, 'aborted');
    const log = await harness.log(1);
    assert.equal(log.errorCode, 'client_aborted');
    assert.equal(log.usageEstimated, true);
    assert.equal(log.completionTokens, 2, 'two chunks of four characters');
    assert.ok(log.promptTokens > 0);
    assert.equal(typeof log.firstByteMs, 'number');
  });

  it('before the first byte: the upstream request is aborted too', async () => {
    fake.behaviour = { hang: 'headers' };
    const controller = new AbortController();
    const pending = post(harness, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, controller.signal).catch((e: unknown) => e);
    await fake.received(1);
    controller.abort();
    await pending;
    assert.equal(await fake.requests[0]!.closed, 'aborted');
    const log = await harness.log(1);
    assert.equal(log.errorCode, 'client_aborted');
    assert.equal(log.status, 499, 'the status that was really sent: none (nginx writes 499), never a 200');
    assert.equal(log.firstByteMs, null);
    assert.equal(log.cost, 0);
  });
});
