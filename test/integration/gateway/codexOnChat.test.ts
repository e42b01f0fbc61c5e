// What the Codex CLI sends beyond the simple bodies, through the gateway to an OpenAI-compatible upstream (converted
// to chat completions), with the official openai SDK as an unchanged client: what reaches the upstream must be a
// request it accepts.
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { chatModel, useGatewayWithUpstream } from './helpers.ts';

const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'exec_command', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }];

describe('the Codex CLI on a chat upstream: the requests it sends, converted', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'chat', baseUrl: upstream.url, models: { 'codex-via-chat': 'deepseek-v4' } }));
    await admin.setModel(chatModel('codex-via-chat', 1_000_000, 2_000_000, { toolCalling: true }));
  });
  let upstream: FakeUpstream;
  before(() => ({ upstream } = suite));
  const sent = () => upstream.requests.at(-1)!.body;

  it("a reasoning item before function calls goes back as the calling turn's reasoning_content (DeepSeek refuses the turn without it)", async () => {
    // Before: reasoning items were dropped, and DeepSeek's thinking models answered 400 "Missing reasoning_content field".
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'I should run ls.' }], encrypted_content: null },
      { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      { type: 'function_call', call_id: 'call_2', name: 'exec_command', arguments: '{"cmd":"pwd"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
      { type: 'function_call_output', call_id: 'call_2', output: '/work' },
      // Only encrypted: nothing readable to send.
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAA' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One file.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
    ] as OpenAI.Responses.ResponseInput;
    await suite.openai.responses.create({ model: 'codex-via-chat', tools, input, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'high', summary: 'auto' } });
    assert.deepEqual(sent().messages, [
      { role: 'user', content: 'List the files.' },
      {
        role: 'assistant', content: null, reasoning_content: 'I should run ls.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"ls"}' } },
          { id: 'call_2', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"pwd"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      { role: 'tool', tool_call_id: 'call_2', content: '/work' },
      { role: 'assistant', content: 'One file.' },
      { role: 'user', content: 'Thanks.' },
    ]);
  });

  it("an image a tool returned (the Codex CLI's view_image) reaches the model: in a user message after the tool messages", async () => {
    // Before: the output's image was dropped without a word, and the model answered about a picture it never got.
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is in a.png and b.png?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'view_image', arguments: '{"path":"a.png"}' },
      { type: 'function_call', call_id: 'call_2', name: 'view_image', arguments: '{"path":"b.png"}' },
      { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_image', image_url: png }] },
      { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'b.png:' }, { type: 'input_image', image_url: png }] },
    ] as unknown as OpenAI.Responses.ResponseInput;
    const viewImage: OpenAI.Responses.Tool = { type: 'function', name: 'view_image', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } };
    await suite.openai.responses.create({ model: 'codex-via-chat', tools: [viewImage], input });
    assert.deepEqual(sent().messages.slice(2), [
      { role: 'tool', tool_call_id: 'call_1', content: '(an image, in the next message)' },
      { role: 'tool', tool_call_id: 'call_2', content: 'b.png:' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: png } }, { type: 'image_url', image_url: { url: png } }] },
    ]);
  });
});
