// An Anthropic model's signed thinking through a Responses client and back, as the Codex CLI carries reasoning:
// the reasoning item's encrypted_content holds the thinking blocks, and sent back on the next turn it becomes the
// same thinking block, signature and all, on an anthropic channel (Anthropic checks it). Before, a converted answer
// dropped the signature, so the next turn could not give the model its own thinking back. Official openai SDK.
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import { FAKE_SIGNATURE } from '../../support/fakeMessages.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { chatModel, useGatewayWithUpstream } from './helpers.ts';

const tools = [{ type: 'function' as const, name: 'shell', parameters: { type: 'object' }, strict: false }];

describe('signed thinking through a Responses client and back to an anthropic channel', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'ant', type: 'anthropic', baseUrl: upstream.url, models: { 'claude-up': 'claude-opus' } }));
    await admin.addChannel(newChannel({ name: 'oai', baseUrl: upstream.url, models: { 'gpt-up': 'gpt-5' } }));
    for (const name of ['claude-up', 'gpt-up']) await admin.setModel(chatModel(name, 1_000_000, 2_000_000, { toolCalling: true }));
  });
  let upstream: FakeUpstream;
  let sdk: OpenAI;
  before(() => ({ upstream, openai: sdk } = suite));

  const answers: Record<string, (input: string) => Promise<OpenAI.Responses.Response>> = {
    'not streamed': (input) => sdk.responses.create({ model: 'claude-up', input, tools }),
    streamed: (input) => sdk.responses.stream({ model: 'claude-up', input, tools }).finalResponse(),
  };

  for (const [how, answer] of Object.entries(answers)) {
    it(`${how}: encrypted_content carries the thinking, and the next turn sends the same thinking block back`, async () => {
      upstream.behaviour = { thinking: 'I should look around.', toolCall: { id: 'toolu_9', name: 'shell', arguments: '{"command":"ls"}' } };
      const first = await answer('what is here');
      const reasoning = first.output.find((item) => item.type === 'reasoning');
      assert.ok(reasoning && reasoning.type === 'reasoning' && typeof reasoning.encrypted_content === 'string', JSON.stringify(first.output));
      assert.equal(reasoning.summary[0]?.text, 'I should look around.');

      upstream.behaviour = {};
      const input = [{ role: 'user' as const, content: 'what is here' }, ...first.output, { type: 'function_call_output' as const, call_id: 'toolu_9', output: 'a.txt' }];
      for (const model of ['claude-up', 'gpt-up']) await sdk.responses.create({ model, input: input as OpenAI.Responses.ResponseInput, tools });
      const [toAnthropic, toOpenai] = upstream.requests.slice(-2).map((r) => r.body as { messages: { role: string; content: unknown; thinking_blocks?: unknown }[] });
      assert.deepEqual(toAnthropic!.messages[1], {
        role: 'assistant',
        content: [{ type: 'thinking', thinking: 'I should look around.', signature: FAKE_SIGNATURE }, { type: 'tool_use', id: 'toolu_9', name: 'shell', input: { command: 'ls' } }],
      });
      // A chat upstream cannot check Anthropic's signature: nothing of it goes there.
      assert.ok(toOpenai!.messages.every((m) => m.thinking_blocks === undefined));
    });
  }
});
