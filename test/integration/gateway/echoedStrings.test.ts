// A client's string quoted in a 400 message is cut, with a marker (as the log's are), at the place that quotes it:
// a 2 MB block `type` came back whole in a 2 MB answer, to a request anyone with a key can send. Over real HTTP,
// on each endpoint and conversion that quoted one.
import assert from 'node:assert/strict';
import { assertAnthropicError, assertError } from '../../support/answer.ts';
import { newChannel } from '../../support/channels.ts';
import { call, chatModel, useGatewayWithUpstream } from './helpers.ts';

const HUGE = 't'.repeat(2_000_000);

describe('client strings in error messages', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'chat', baseUrl: upstream.url, models: { 'on-chat': 'gpt-4o' } }));
    await admin.addChannel(newChannel({ name: 'claude', type: 'anthropic', baseUrl: upstream.url, models: { 'on-claude': 'claude-x' } }));
    for (const name of ['on-chat', 'on-claude']) await admin.setModel(chatModel(name, 1, 1));
  });

  const cases: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
    ['a content block type, chat converted for an anthropic channel', '/v1/chat/completions', { model: 'on-claude', messages: [{ role: 'user', content: [{ type: HUGE, text: 'x' }] }] }],
    ['a content block type on Messages (chat channel)', '/v1/messages', { model: 'on-chat', max_tokens: 5, messages: [{ role: 'user', content: [{ type: HUGE, text: 'x' }] }] }],
    ['a server tool type on Messages', '/v1/messages', { model: 'on-chat', max_tokens: 5, tools: [{ type: HUGE, name: 'web_search' }], messages: [{ role: 'user', content: 'x' }] }],
    ['tool_choice.type on Responses', '/v1/responses', { model: 'on-chat', input: 'x', tool_choice: { type: HUGE } }],
    ['input[0].type on Responses', '/v1/responses', { model: 'on-chat', input: [{ type: HUGE }] }],
    ['a role on Responses', '/v1/responses', { model: 'on-chat', input: [{ type: 'message', role: HUGE, content: 'x' }] }],
    ['a content part type on Responses', '/v1/responses', { model: 'on-chat', input: [{ role: 'user', content: [{ type: HUGE }] }] }],
    ['a response_format type, chat converted for an anthropic channel', '/v1/chat/completions', { model: 'on-claude', response_format: { type: HUGE }, messages: [{ role: 'user', content: 'x' }] }],
  ];
  for (const [name, path, body] of cases) {
    it(`${name}: a short 400 that quotes the start of it and says how long it was`, async () => {
      const answer = await call(suite.t.gw, 'POST', path, { key: suite.t.key, body });
      (path === '/v1/messages' ? assertAnthropicError : assertError)(answer, 400, 'invalid_request');
      assert.ok(answer.text.length < 1000, `${answer.text.length} bytes: ${answer.text.slice(0, 200)}`);
      assert.ok(answer.text.includes('ttt…(2000000 characters)'), answer.text);
    });
  }
});
