import assert from 'node:assert/strict';
import { ROLE_ASSISTANT, ROLE_SYSTEM, ROLE_USER, toOpenAiMessages, toolResultText } from '../../../../src/extension/lm/messages.ts';
import { TOOL_MODE_AUTO, TOOL_MODE_REQUIRED, toOpenAiTools, toolChoice } from '../../../../src/extension/lm/tools.ts';

// Plain objects shaped like VS Code's part classes (which are plain data classes).
const text = (value: string) => ({ value });
const toolCall = (callId: string, name: string, input: object) => ({ callId, name, input });
const toolResult = (callId: string, content: unknown[]) => ({ callId, content });

describe('lm/messages toOpenAiMessages', () => {
  it('maps system, user and assistant text in order', () => {
    assert.deepEqual(
      toOpenAiMessages([
        { role: ROLE_SYSTEM, content: [text('Be brief.')] },
        { role: ROLE_USER, content: [text('Hello '), text('there')] },
        { role: ROLE_ASSISTANT, content: [text('Hi!')] },
        { role: ROLE_USER, content: [text('Bye')] },
      ]),
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'Bye' },
      ],
    );
  });

  it('maps an assistant tool-call turn and the tool results that answer it', () => {
    const out = toOpenAiMessages([
      { role: ROLE_USER, content: [text('Weather in Paris and Tokyo?')] },
      { role: ROLE_ASSISTANT, content: [text('Checking.'), toolCall('call_a', 'weather', { city: 'Paris' }), toolCall('call_b', 'weather', { city: 'Tokyo' })] },
      { role: ROLE_USER, content: [toolResult('call_a', [text('18C')]), toolResult('call_b', [text('25'), text('C')]), text('Thanks')] },
    ]);
    assert.deepEqual(out, [
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Tokyo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '18C' },
      { role: 'tool', tool_call_id: 'call_b', content: '25C' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('sends content null for an assistant turn that only calls tools, and drops empty turns', () => {
    const out = toOpenAiMessages([
      { role: ROLE_ASSISTANT, content: [toolCall('c1', 'list', {})] },
      { role: ROLE_USER, content: [toolResult('c1', [text('a.ts')])] },
      { role: ROLE_ASSISTANT, content: [] },
    ]);
    assert.deepEqual(out, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
    ]);
  });

  it('reads text data parts and prompt-tsx results; for a model without image input, says an image was left out', () => {
    const json = { mimeType: 'application/json', data: new TextEncoder().encode('{"ok":true}') };
    const png = { mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    assert.equal(toolResultText([json, png, { value: { node: 1 } }]), '{"ok":true}{"node":1}');
    assert.deepEqual(toOpenAiMessages([{ role: ROLE_USER, content: [text('see: '), png, { mimeType: 'text/plain', data: new TextEncoder().encode('notes') }] }]), [
      { role: 'user', content: 'see: notes\n(an image this model cannot see)' },
    ]);
  });

  it('sends attached images as image_url parts (data: URLs) to a model that takes them', () => {
    const png = { mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    const jpeg = { mimeType: 'IMAGE/JPEG', data: new Uint8Array([255, 216, 255]) };
    const hint = { mimeType: 'cache_control', data: new TextEncoder().encode('ephemeral') };
    assert.deepEqual(toOpenAiMessages([{ role: ROLE_USER, content: [text('What is in these?'), png, jpeg, hint] }], { imageInput: true }), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
        ],
      },
    ]);
    assert.deepEqual(toOpenAiMessages([{ role: ROLE_USER, content: [png] }], { imageInput: true }), [
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } }] },
    ]);
  });

  it('puts the images a tool returned in a user message after the tool messages, which say so', () => {
    const png = { mimeType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) };
    const call = { callId: 'c1', name: 'screenshot', input: {} };
    const conversation = [
      { role: ROLE_ASSISTANT, content: [call] },
      { role: ROLE_USER, content: [{ callId: 'c1', content: [text('the page'), png] }, text('Compare it with the design.')] },
    ];
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } };
    assert.deepEqual(toOpenAiMessages(conversation, { imageInput: true }).slice(1), [
      { role: 'tool', tool_call_id: 'c1', content: 'the page\n(an image, in the next message)' },
      { role: 'user', content: [{ type: 'text', text: 'Compare it with the design.' }, image] },
    ]);
    // A model that takes no images gets words in their place: an image_url part would be a 400 from its upstream.
    assert.deepEqual(toOpenAiMessages(conversation).slice(1), [
      { role: 'tool', tool_call_id: 'c1', content: 'the page\n(an image this model cannot see)' },
      { role: 'user', content: 'Compare it with the design.' },
    ]);
  });
});

describe('lm/tools', () => {
  it('maps VS Code tool definitions to OpenAI function tools', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    assert.deepEqual(
      toOpenAiTools([
        { name: 'read_file', description: 'Read a file', inputSchema: schema },
        { name: 'now', description: 'Current time' },
      ]),
      [
        { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: schema } },
        { type: 'function', function: { name: 'now', description: 'Current time', parameters: { type: 'object', properties: {} } } },
      ],
    );
    assert.equal(toOpenAiTools([]), undefined);
    assert.equal(toOpenAiTools(undefined), undefined);
  });

  it('asks for a required tool call only in Required mode with tools', () => {
    const tools = [{ name: 't', description: 'd' }];
    assert.equal(toolChoice(TOOL_MODE_REQUIRED, tools), 'required');
    assert.equal(toolChoice(TOOL_MODE_AUTO, tools), undefined);
    assert.equal(toolChoice(TOOL_MODE_REQUIRED, []), undefined);
  });
});
