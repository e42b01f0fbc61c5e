// What an upstream may send is bounded: a JSON answer past its byte limit is refused with a 502
// (never held whole in memory), and a stream line or event past its limit ends the answer in an
// error (before the first byte: a 502), so a broken or hostile upstream cannot grow the gateway.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, logOfRequest, startTestGateway, type Started } from '../gateway/helpers.ts';

describe('relay: limits on what an upstream sends', () => {
  let t: Started;
  let upstream: FakeUpstream;
  before(async () => {
    upstream = await startFakeUpstream();
    t = await startTestGateway({ maxAnswerBytes: 10_000, maxSseChars: 1_000 });
    await addChannelPricedFree(t.admin(), newChannel({ name: 'big', baseUrl: upstream.url, models: { big: 'big' } }));
  });
  after(async () => {
    await t.close();
    await upstream.close();
  });

  it('a JSON answer past the byte limit: 502 upstream_error, logged', async () => {
    upstream.behaviour = { pieces: ['x'.repeat(20_000)] };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('big') });
    assertError(answer, 502, 'upstream_error');
    assert.match(answer.json.error.message, /larger than 10000 bytes/);
    assert.equal((await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).errorCode, 'upstream_error');
    upstream.behaviour = { pieces: ['x'.repeat(2_000)] };
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('big') })).status, 200, 'below the limit it is served');
  });

  it('a stream line past the limit before anything was sent: 502, nothing half-written', async () => {
    upstream.behaviour = { pieces: ['y'.repeat(5_000)], fragmentBytes: 700 };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('big', 'hi', { stream: true }) });
    assertError(answer, 502, 'upstream_error');
    assert.match(answer.json.error.message, /longer than 1000 characters/);
  });

  it('a stream line past the limit after the first events: the stream ends with an error event and no [DONE]', async () => {
    upstream.behaviour = { pieces: ['ok', 'z'.repeat(5_000)], chunkDelayMs: 30 };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('big', 'hi', { stream: true }) });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /"content":"ok"/);
    assert.match(answer.text, /longer than 1000 characters/);
    assert.doesNotMatch(answer.text, /\[DONE\]/);
    assert.equal((await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).errorCode, 'upstream_error');
  });
});
