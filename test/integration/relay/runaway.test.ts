// An upstream that ignores the cap it was sent is not relayed without end: once its stream is well past
// the cap (about twice it, estimated), the gateway ends the answer at the length limit in the client's
// format (finish_reason "length", stop_reason "max_tokens"), stops the upstream, charges no more than
// was reserved, and logs upstream_ignored_max_tokens (as for any answer reported past its cap). An answer within
// its cap is never cut.
import assert from 'node:assert/strict';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, chatModel, logOfRequest, startTestGateway, type Started } from '../gateway/helpers.ts';

const WORD = ' word'; // 5 characters: well over the estimate's 4 a token
const many = (count: number) => Array.from({ length: count }, () => WORD);

describe('relay: an upstream that ignores max_tokens', () => {
  let t: Started;
  let upstream: FakeUpstream;
  before(async () => {
    upstream = await startFakeUpstream();
    t = await startTestGateway();
    await addChannelPricedFree(t.admin(), newChannel({ name: 'runaway', baseUrl: upstream.url, models: { chatty: 'chatty' } }));
    await addChannelPricedFree(t.admin(), newChannel({ name: 'runaway-claude', type: 'anthropic', baseUrl: upstream.url, models: { 'chatty-claude': 'chatty-claude' } }));
    await addChannelPricedFree(t.admin(), newChannel({ name: 'runaway-native', baseUrl: upstream.url, responsesApi: true, models: { 'chatty-native': 'chatty-native-up' } }));
    // Priced: the reservation, and so the cap the upstream is held to, exists for what is paid for.
    for (const name of ['chatty', 'chatty-claude', 'chatty-native']) await t.admin().setModel(chatModel(name, 1_000_000, 1_000_000));
    await addChannelPricedFree(t.admin(), newChannel({ name: 'runaway-text', baseUrl: upstream.url, models: { 'chatty-text': 'chatty-text' } }));
    await t.admin().setModel(chatModel('chatty-text', 1_000_000, 1_000_000, { kind: 'completion' }));
  });
  after(async () => {
    await t.close();
    await upstream.close();
  });

  it('chat completions: ended with finish_reason "length" and [DONE], the upstream stopped, logged', async () => {
    upstream.behaviour = { pieces: many(2000) };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { stream: true, max_tokens: 20 }) });
    assert.equal(answer.status, 200);
    const chunks = answer.text.split('\n\n').filter((b) => b.startsWith('data: ')).map((b) => b.slice(6));
    assert.equal(chunks.at(-1), '[DONE]');
    const last = JSON.parse(chunks.at(-2)!);
    assert.equal(last.choices[0].finish_reason, 'length');
    const text = chunks.slice(0, -2).map((c) => JSON.parse(c).choices[0]?.delta?.content ?? '').join('');
    assert.ok(text.length <= (2 * 20 + 64) * 4 + 2 * WORD.length, `cut near twice the cap, not ${text.length} characters`);
    assert.equal(await upstream.requests.at(-1)!.closed, 'aborted', 'the upstream is stopped');
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    assert.deepEqual([log.status, log.errorCode, log.completionTokens, log.usageEstimated], [200, 'upstream_ignored_max_tokens', 20, true]);
  });

  it('Messages on an anthropic channel: the open block closed, stop_reason "max_tokens", message_stop', async () => {
    upstream.behaviour = { pieces: many(2000) };
    const answer = await call(t.gw, 'POST', '/v1/messages', { key: t.key, body: { model: 'chatty-claude', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'hi' }] } });
    const events = answer.text.split('\n\n').filter(Boolean).map((b) => /^event: (.*)$/m.exec(b)?.[1]);
    assert.deepEqual(events.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    assert.match(answer.text, /"stop_reason":"max_tokens"/);
  });

  it('Responses passed through to an upstream that has the API: ended with response.incomplete, numbered on from the upstream\'s events', async () => {
    upstream.behaviour = { pieces: many(2000) };
    const answer = await call(t.gw, 'POST', '/v1/responses', { key: t.key, body: { model: 'chatty-native', input: 'hi', max_output_tokens: 20, stream: true } });
    const events = answer.text.split('\n\n').filter(Boolean).map((b) => JSON.parse(b.split('\ndata: ')[1]!) as { type: string; sequence_number: number; response?: { model: string; status: string; incomplete_details: { reason: string } } });
    const last = events.at(-1)!;
    assert.deepEqual([last.type, last.response?.status, last.response?.incomplete_details.reason, last.response?.model], ['response.incomplete', 'incomplete', 'max_output_tokens', 'chatty-native']);
    assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i), 'the gateway\'s own last event follows the upstream\'s numbering');
  });

  it('an answer within its cap is never cut, even in long words', async () => {
    upstream.behaviour = { pieces: many(20), usage: { prompt_tokens: 11, completion_tokens: 20 } };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { stream: true, max_tokens: 20 }) });
    assert.match(answer.text, /"finish_reason":"stop"/);
    assert.equal((await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).errorCode, null);
  });

  it('a stream past its cap by less than the cut\'s margin: relayed whole, charged its usage as far as the reservation goes, logged for the operator', async () => {
    upstream.behaviour = { pieces: many(6), usage: { prompt_tokens: 11, completion_tokens: 30 } };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { stream: true, max_tokens: 20, stream_options: { include_usage: true } }) });
    assert.match(answer.text, /"finish_reason":"stop"/);
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    assert.deepEqual([log.status, log.errorCode, log.completionTokens, log.usageEstimated], [200, 'upstream_ignored_max_tokens', 30, false]);
    assert.equal(log.cost, 11 + 30, 'the prompt\'s bound in the reservation covers the 10 tokens over');
  });

  it('a whole answer past the cap (by its own count): cut to the cap, finish_reason "length", charged the cap', async () => {
    upstream.behaviour = { pieces: ['0123456789'.repeat(100)], usage: { prompt_tokens: 11, completion_tokens: 400 } };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { max_tokens: 20 }) });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.choices[0].finish_reason, 'length');
    assert.equal(answer.json.choices[0].message.content.length, 50, '1000 characters x 20 / 400');
    assert.deepEqual([answer.json.usage.completion_tokens, answer.json.usage.total_tokens], [20, 31]);
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    assert.deepEqual([log.errorCode, log.completionTokens, log.cost], ['upstream_ignored_max_tokens', 20, 31]);
  });

  it('a whole answer past the cap: its tool call arguments are cut too, not only its text', async () => {
    const args = JSON.stringify({ words: '0123456789'.repeat(100) });
    upstream.behaviour = { toolCall: { name: 'write', arguments: args }, usage: { prompt_tokens: 11, completion_tokens: 400 } };
    const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { max_tokens: 20 }) });
    const choice = answer.json.choices[0];
    assert.equal(choice.finish_reason, 'length');
    assert.equal(choice.message.tool_calls[0].function.arguments, args.slice(0, Math.floor(args.length * 20 / 400)));
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    assert.deepEqual([log.errorCode, log.completionTokens], ['upstream_ignored_max_tokens', 20]);
  });

  it('a whole answer without usage, estimated well past the cap: cut as a stream is, charged the cap', async () => {
    upstream.behaviour = { pieces: ['0123456789'.repeat(1000)], omitUsage: true };
    for (const [path, body] of [['/v1/chat/completions', chatBody('chatty', 'hi', { max_tokens: 20 })], ['/v1/completions', { model: 'chatty-text', prompt: 'a', max_tokens: 20 }]] as const) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body });
      const choice = answer.json.choices[0];
      assert.equal(choice.finish_reason, 'length', path);
      assert.equal((choice.message?.content ?? choice.text).length, 80, `${path}: 10,000 characters x 20 / 2,500 estimated`);
      const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
      assert.deepEqual([log.errorCode, log.completionTokens, log.usageEstimated], ['upstream_ignored_max_tokens', 20, true], path);
    }
    // Within twice the estimate: whole (the estimate's error is not the upstream's).
    upstream.behaviour = { pieces: ['0123456789'.repeat(16)], omitUsage: true };
    const whole = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { max_tokens: 20 }) });
    assert.deepEqual([whole.json.choices[0].finish_reason, whole.json.choices[0].message.content.length], ['stop', 160]);
  });

  it('a whole Responses answer passed through past the cap: cut, status "incomplete" for max_output_tokens, charged the cap', async () => {
    upstream.behaviour = { pieces: ['0123456789'.repeat(100)], usage: { prompt_tokens: 11, completion_tokens: 398 } };
    const answer = await call(t.gw, 'POST', '/v1/responses', { key: t.key, body: { model: 'chatty-native', input: 'hi', max_output_tokens: 20 } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual([answer.json.status, answer.json.incomplete_details?.reason, answer.json.usage.output_tokens], ['incomplete', 'max_output_tokens', 20]);
    const text = answer.json.output.filter((item: { type: string }) => item.type === 'message').flatMap((item: { content: { text: string }[] }) => item.content.map((part) => part.text)).join('');
    assert.equal(text.length, 50, '1000 characters x 20 / 400');
    const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
    assert.deepEqual([log.errorCode, log.completionTokens], ['upstream_ignored_max_tokens', 20]);
  });

  it('several choices (n, best_of, a list of prompts): each may reach the cap, so an answer within cap x choices is whole and charged in full; past it, cut', async () => {
    const whole = [
      ['/v1/chat/completions', chatBody('chatty', 'hi', { max_tokens: 20, n: 2 })],
      ['/v1/completions', { model: 'chatty-text', prompt: ['a', 'b'], max_tokens: 20 }],
      ['/v1/completions', { model: 'chatty-text', prompt: 'a', max_tokens: 20, best_of: 2 }],
    ] as const;
    const textOf = (choice: { message?: { content: string }; text?: string }) => choice.message?.content ?? choice.text ?? '';
    for (const [path, body] of whole) {
      upstream.behaviour = { pieces: ['0123456789'.repeat(100)], usage: { prompt_tokens: 11, completion_tokens: 40 } };
      const answer = await call(t.gw, 'POST', path, { key: t.key, body });
      assert.equal(answer.status, 200, answer.text);
      assert.notEqual(answer.json.choices[0].finish_reason, 'length', `${path} ${JSON.stringify(body)}`);
      assert.equal(textOf(answer.json.choices[0]).length, 1000, 'not cut');
      const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
      assert.deepEqual([log.errorCode, log.completionTokens, log.cost], [null, 40, 51], 'charged in full');
    }
    upstream.behaviour = { pieces: ['0123456789'.repeat(100)], usage: { prompt_tokens: 11, completion_tokens: 50 } };
    const past = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('chatty', 'hi', { max_tokens: 20, n: 2 }) });
    assert.deepEqual([past.json.choices[0].finish_reason, past.json.choices[0].message.content.length, past.json.usage.completion_tokens], ['length', 800, 40], '1000 characters x 40 / 50');
    const log = await logOfRequest(t.admin(), past.headers.get('x-request-id'));
    assert.deepEqual([log.errorCode, log.completionTokens, log.cost], ['upstream_ignored_max_tokens', 40, 51]);
  });
});
