// @gateway's pure logic end to end over the bundled gateway: history -> messages -> chatStream
// -> rendered answer with the reasoning apart; and a failure -> the contract's explanation with fixes.
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/client/index.ts';
import { useEchoGateway } from '../../support/echoGateway.ts';
import { explainError } from '../../../src/extension/errors/explain.ts';
import { historyToMessages } from '../../../src/extension/chat/history.ts';
import type { Turn } from '../../../src/extension/chat/history.ts';
import { AnswerRenderer } from '../../../src/extension/chat/render.ts';
import type { DisplayOp } from '../../../src/extension/chat/render.ts';
import { failureView } from '../../../src/extension/chat/views.ts';

const ME = 'model-gateway.gateway';

describe('@gateway chat over the bundled gateway (echo model)', () => {
  const echo = useEchoGateway();

  it('streams the answer in pieces with the reasoning shown apart, before it', async () => {
    const history: Turn[] = [
      { kind: 'request', participant: ME, prompt: 'hello' },
      { kind: 'response', participant: ME, markdown: ['You said: hello'], metadata: { answer: 'You said: hello' } },
    ];
    const messages = historyToMessages(history, ME, { prompt: 'think about cats' });
    const renderer = new AnswerRenderer({ thinking: 'Thinking', thinkingProgress: 'Thinking…' });
    const ops: DisplayOp[] = [];
    for await (const chunk of echo.client.chatStream({ model: 'echo', messages, stream: true })) ops.push(...renderer.push(chunk));
    ops.push(...renderer.finish());

    assert.equal(renderer.answer, 'You said: think about cats');
    assert.match(renderer.reasoning, /^You asked me to think\./);
    const markdown = ops.filter((op) => op.kind === 'markdown').map((op) => op.value);
    assert.ok(markdown.length > 4, 'the answer arrives in several pieces');
    const text = markdown.join('');
    assert.ok(text.startsWith('> **Thinking**\n>\n> You asked me to think.'), text);
    assert.ok(text.endsWith('\n\nYou said: think about cats'), text);
    assert.equal(ops.filter((op) => op.kind === 'progress').length, 1);
  });

  it('a wrong key renders the 401 explanation with its request id and the Set API Key fix', async () => {
    const wrong = new GatewayClient({ baseUrl: echo.gw.url, apiKey: 'sk-wrong-key-0000', maxRetries: 0 });
    try {
      let caught: unknown;
      try {
        for await (const _ of wrong.chatStream({ model: 'echo', messages: [{ role: 'user', content: 'hi' }], stream: true })) void _;
      } catch (error) {
        caught = error;
      }
      const explanation = explainError(caught);
      assert.equal(explanation.kind, 'authentication');
      assert.ok(explanation.requestId, 'the gateway gave a request id');
      const view = failureView(explanation);
      assert.ok(view.markdown.includes(explanation.requestId!));
      assert.equal(view.buttons[0]?.command, 'modelGateway.setApiKey');
      assert.ok(view.buttons.some((b) => b.command === 'modelGateway.runSelfTest'));
    } finally {
      await wrong.close();
    }
  });

  it('an unknown model name offers Pick Model', async () => {
    let caught: unknown;
    try {
      for await (const _ of echo.client.chatStream({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }], stream: true })) void _;
    } catch (error) {
      caught = error;
    }
    const view = failureView(explainError(caught));
    assert.equal(explainError(caught).code, 'model_not_found');
    assert.equal(view.buttons[0]?.command, 'modelGateway.pickModel');
  });
});
