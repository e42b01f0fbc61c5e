import assert from 'node:assert/strict';
import { planEcho, tokenize, TOOL_ARGUMENT_PIECE, TOOL_RESULT_PREVIEW, userRequestText } from '../../../src/gateway/providers/echo/model.ts';

const body = (content: unknown, extra: object = {}) => ({ model: 'e', messages: [{ role: 'user', content }], ...extra }) as never;

describe('echo model', () => {
  it('tokenizes into word-sized tokens that join back into the text', () => {
    assert.deepEqual(tokenize('You said:  hi there'), ['You', ' said:', '  hi', ' there']);
    assert.deepEqual(tokenize('   '), []);
  });

  it('repeats the last user message, text parts included, and counts its images', () => {
    const reply = (content: unknown) => planEcho(body(content), null).tokens.map((t) => t.text).join('');
    const plan = planEcho(body([{ type: 'text', text: 'look' }, { type: 'image_url', image_url: {} }]), null);
    assert.equal(plan.tokens.map((t) => t.text).join(''), 'You said: look (and 1 image)');
    assert.equal(plan.promptTokens, 2);
    assert.equal(reply(''), 'You said nothing.');
    assert.equal(reply([{ type: 'text', text: 'look' }]), 'You said: look', 'text alone as before');
    assert.equal(reply([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }, { type: 'text', text: 'these' }, { type: 'image_url', image_url: { url: 'https://x/b.png' } }]),
      'You said: these (and 2 images)');
    assert.equal(reply([{ type: 'image_url', image_url: { url: 'https://x/b.png' } }]), 'You said nothing (and 1 image).');
  });

  it('caps at the smallest of the account cap and the client limits', () => {
    assert.equal(planEcho(body('a b c d', { max_tokens: 4 }), 3).tokens.length, 3);
    const plan = planEcho(body('a b c d', { max_completion_tokens: 2 }), 3);
    assert.equal(plan.tokens.length, 2);
    assert.equal(plan.finishReason, 'length');
    assert.equal(planEcho(body('a'), 3).finishReason, 'stop');
  });

  it('reasons first when the message says think', () => {
    const plan = planEcho(body('Please THINK hard'), null);
    assert.equal(plan.tokens[0]!.kind, 'reasoning');
    assert.equal(plan.tokens.at(-1)!.kind, 'content');
    assert.ok(planEcho(body('no reasoning here'), null).tokens.every((t) => t.kind === 'content'));
  });
});

describe('echo model: tool calls', () => {
  const tools = (...names: string[]) => names.map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } }));
  const ask = (content: unknown, extra: object = {}) => ({ model: 'e', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content }], tools: tools('get_time', 'read_file', 'read'), ...extra }) as never;
  const text = (plan: ReturnType<typeof planEcho>, kind: string) => plan.tokens.filter((t) => t.kind === kind).map((t) => t.text).join('');

  it('finds what the user said inside the last <userRequest> tag, else takes the whole text', () => {
    assert.equal(userRequestText('<context>\nnoise</context>\n<userRequest>\nhello <b>\n</userRequest>'), 'hello <b>');
    assert.equal(userRequestText('<userRequest>a</userRequest> then <userRequest> b </userRequest>'), 'b');
    assert.equal(userRequestText('  plain  '), 'plain');
  });

  it('calls a tool named as "call <tool>", with the JSON object after it as arguments, streamed in pieces', () => {
    const plan = planEcho(ask('please call read_file {"path": "src/main.ts", "lines": [1, 40]} now'), null);
    assert.equal(plan.finishReason, 'tool_calls');
    assert.deepEqual(plan.toolCall, { id: 'call_echo_2', name: 'read_file', arguments: '{"path":"src/main.ts","lines":[1,40]}' });
    assert.equal(plan.tokens[0]!.kind, 'tool_name');
    assert.equal(text(plan, 'tool_name'), 'read_file');
    assert.equal(text(plan, 'tool_arguments'), plan.toolCall!.arguments);
    const pieces = plan.tokens.filter((t) => t.kind === 'tool_arguments');
    assert.ok(pieces.length > 2 && pieces.every((p) => p.text.length <= TOOL_ARGUMENT_PIECE));
    assert.equal(text(plan, 'content'), '');
  });

  it('no arguments gives {}; the longest tool name wins; the name must be a whole word', () => {
    assert.deepEqual(planEcho(ask('Call get_time.'), null).toolCall, { id: 'call_echo_2', name: 'get_time', arguments: '{}' });
    assert.equal(planEcho(ask('call read_file'), null).toolCall!.name, 'read_file');
    assert.equal(planEcho(ask('call read'), null).toolCall!.name, 'read');
    assert.equal(planEcho(ask('call get_timezone'), null).toolCall, undefined);
  });

  it('finds the request inside VS Code\'s Agent-mode context tags, in text parts too', () => {
    const agent = [{ type: 'text', text: '<context>The user asked to call read_file before.</context>' }, { type: 'text', text: '<userRequest>\ncall get_time {"zone": "UTC"}\n</userRequest>' }];
    assert.deepEqual(planEcho(ask(agent), null).toolCall, { id: 'call_echo_2', name: 'get_time', arguments: '{"zone":"UTC"}' });
    const plain = planEcho(ask('<context>lots</context><userRequest>Hello there</userRequest>'), null);
    assert.equal(text(plain, 'content'), 'You said: Hello there');
  });

  it('answers with text when the tool is unknown, not offered, refused by tool_choice, or the arguments are not a JSON object', () => {
    for (const plan of [
      planEcho(ask('call delete_everything'), null),
      planEcho(ask('call get_time', { tools: undefined }), null),
      planEcho(ask('call get_time', { tool_choice: 'none' }), null),
      planEcho(ask('call get_time {"zone": '), null),
      planEcho(ask('call get_time {zone: 1}'), null),
    ]) {
      assert.equal(plan.toolCall, undefined);
      assert.equal(plan.finishReason, 'stop');
      assert.match(text(plan, 'content'), /^You said: call /);
    }
  });

  it('answers a tool result with the tool\'s name and what it returned, cut at 200 characters', () => {
    const long = 'x'.repeat(300);
    const messages = [
      { role: 'user', content: 'call read_file {"path":"a"}' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: long },
    ];
    const plan = planEcho({ model: 'e', messages, tools: tools('read_file') } as never, null);
    assert.equal(plan.toolCall, undefined);
    assert.equal(plan.finishReason, 'stop');
    assert.equal(text(plan, 'content'), `Tool read_file returned: ${'x'.repeat(TOOL_RESULT_PREVIEW)}…`);
    // VS Code may put text after the tool result in the same turn: the result is still what is answered.
    const withText = planEcho({ model: 'e', messages: [...messages.slice(0, 2), { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: 'call read_file' }], tools: tools('read_file') } as never, null);
    assert.equal(text(withText, 'content'), 'Tool read_file returned: ok');
    // A later user turn is answered as usual.
    const later = planEcho({ model: 'e', messages: [...messages, { role: 'assistant', content: 'Tool read_file returned: x' }, { role: 'user', content: 'thanks' }] } as never, null);
    assert.equal(text(later, 'content'), 'You said: thanks');
  });

  it('a tool call counts a token for the name and one per piece, and is cut by the cap with "length"', () => {
    const full = planEcho(ask('call read_file {"path":"0123456789abcdef"}'), null);
    assert.equal(full.tokens.length, 1 + Math.ceil(full.toolCall!.arguments.length / TOOL_ARGUMENT_PIECE));
    const cut = planEcho(ask('call read_file {"path":"0123456789abcdef"}', { max_tokens: 2 }), null);
    assert.equal(cut.tokens.length, 2);
    assert.equal(cut.finishReason, 'length');
  });
});
