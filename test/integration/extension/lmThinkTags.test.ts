// VS Code's own chat (the language-model provider) with a model whose reasoning comes inside the answer text as
// <think>...</think> (DeepSeek R1 or Qwen behind some servers): the reasoning goes to VS Code's thinking part and
// the answer is the text after it, as @gateway already showed it. Before, the tags and the reasoning were the answer
// (and went back to the model in every later turn). Real gateway on loopback, scripted upstream, tags cut anywhere.
import assert from 'node:assert/strict';
import type { GatewayClient } from '../../../src/client/index.ts';
import { ROLE_USER } from '../../../src/extension/lm/messages.ts';
import { sendChunksToSink } from '../../../src/extension/lm/chunksToSink.ts';
import { buildChatRequest } from '../../../src/extension/lm/request.ts';
import { chunk, useScriptedGateway } from './toolStream.ts';
import type { ToolStreamServer } from './toolStream.ts';

describe('lm answers with <think> tags in the text, through the gateway', () => {
  const scripted = useScriptedGateway('r1', { r1: 'deepseek-r1' });
  let upstream: ToolStreamServer;
  let client: GatewayClient;
  before(() => ({ upstream, client } = scripted));

  it('the reasoning is thinking, the answer is the text after </think>', async () => {
    upstream.script = { events: ['<thi', 'nk>The user greets', ' me; greet back.</th', 'ink>\n', '\nHello', ' there!'].map((content) => chunk({ content })).concat(chunk({}, 'stop')) };
    const out = { text: '', thinking: '' };
    const request = buildChatRequest({ model: 'r1', messages: [{ role: ROLE_USER, content: [{ value: 'hi' }] }] });
    await sendChunksToSink(client.chatStream(request), { text: (v) => (out.text += v), thinking: (v) => (out.thinking += v), toolCall: () => undefined });
    assert.deepEqual(out, { text: 'Hello there!', thinking: 'The user greets me; greet back.' });
  });

  it('an answer without tags is left as it is', async () => {
    upstream.script = { events: ['  <b>bold</b> ', 'and <think> later'].map((content) => chunk({ content })).concat(chunk({}, 'stop')) };
    let text = '';
    await sendChunksToSink(client.chatStream(buildChatRequest({ model: 'r1', messages: [{ role: ROLE_USER, content: [{ value: 'hi' }] }] })), { text: (v) => (text += v), toolCall: () => undefined });
    assert.equal(text, '  <b>bold</b> and <think> later');
  });
});
