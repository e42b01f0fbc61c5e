// What Claude Code and the Codex CLI really send (recorded from the CLIs themselves by
// test/fixtures/clients/record.ts), replayed through the gateway: byte for byte where both sides
// speak the client's format, converted where they do not, with tool calls and their results kept
// in order and nothing the client needs lost (thinking signatures, reasoning, tool namespaces).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_COMPLETION_CAP } from '../../../src/gateway/accounts/ledger.ts';
import { newChannel } from '../../support/channels.ts';
import { FAKE_SIGNATURE } from '../../support/fakeMessages.ts';
import { FAKE_ENCRYPTED_REASONING } from '../../support/fakeResponses.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

interface Recorded {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, any>;
}

const fixture = (name: string): { client: string; requests: Recorded[] } =>
  JSON.parse(readFileSync(new URL(`../../fixtures/clients/${name}.json`, import.meta.url), 'utf8'));
const claudeCode = fixture('claude-code');
const codex = fixture('codex');

type Json = Record<string, any>;

/** The events of an SSE text: name and parsed data. */
function eventsOf(text: string): { event: string | null; data: Json }[] {
  return text.split('\n\n').filter((block) => block.includes('data: ')).map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? null;
    const data = /^data: (.*)$/m.exec(block)![1]!;
    return { event, data: data === '[DONE]' ? {} : (JSON.parse(data) as Json) };
  });
}

/** Equal texts, or a failure showing where they first differ (these bodies run to 100 KB). */
function assertSameText(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  let at = 0;
  while (at < Math.min(actual.length, expected.length) && actual[at] === expected[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 80), at + 80));
  assert.fail(`${what}: they differ at character ${at} of ${expected.length}:\n  actual   ${around(actual)}\n  expected ${around(expected)}`);
}

/** Every assistant tool call is answered by tool messages right after it, in its order, and no message is empty. */
function assertChatToolPairs(messages: Json[]): void {
  messages.forEach((message, i) => {
    const empty = message['content'] === '' || (Array.isArray(message['content']) && message['content'].length === 0);
    assert.ok(!empty || message['tool_calls'], `message ${i} (${message['role']}) is not empty`);
    const calls: Json[] = message['tool_calls'] ?? [];
    calls.forEach((call, j) => assert.equal(messages[i + 1 + j]?.['tool_call_id'], call['id'], `call ${call['id']} is answered next`));
  });
}

describe(`real clients, recorded: ${claudeCode.client}, ${codex.client}`, () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    // Recorded with the model name `coder`, a gateway's own (record.ts says why).
    await admin.addChannel(newChannel({ name: 'anthropic', type: 'anthropic', baseUrl: upstream.url, models: { coder: 'coder' } }));
    await admin.addChannel(newChannel({ name: 'chat', baseUrl: upstream.url, models: { 'claude-via-chat': 'qwen3-coder', 'codex-via-chat': 'qwen3-coder' } }));
    await admin.addChannel(newChannel({ name: 'responses', baseUrl: upstream.url, responsesApi: true, models: { 'gpt-5-codex': 'gpt-5-codex' } }));
    for (const name of ['coder', 'claude-via-chat', 'codex-via-chat', 'gpt-5-codex']) await admin.setModel(chatModel(name, 1_000_000, 2_000_000));
  });
  let t: Started;
  let upstream: FakeUpstream;
  before(() => ({ t, upstream } = suite));

  /** Sends a recorded request as the client did (its headers, the gateway's key, the body as JSON text). */
  async function replay(recorded: Recorded, body: Json = recorded.body, keyHeader: 'x-api-key' | 'authorization' = 'authorization'): Promise<{ status: number; text: string; requestId: string | null }> {
    const headers = { ...recorded.headers, [keyHeader]: keyHeader === 'authorization' ? `Bearer ${t.key}` : t.key, 'content-type': 'application/json' };
    const res = await fetch(`${t.gw.url}${recorded.path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, text: await res.text(), requestId: res.headers.get('x-request-id') };
  }

  describe('Claude Code (Messages)', () => {
    it('to an anthropic channel: the body, the anthropic-* headers and the streamed answer pass byte for byte', async () => {
      for (const [turn, recorded] of claudeCode.requests.entries()) {
        upstream.behaviour = turn === 0
          ? { thinking: 'I should read the file.', toolCall: { id: 'toolu_01B', name: 'Read', arguments: '{"file_path":"/work/project/hello.py"}' } }
          : { thinking: 'It prints hi.', pieces: ['It prints ', '`hi`.'] };
        const answer = await replay(recorded);
        assert.equal(answer.status, 200, answer.text);
        const sent = upstream.requests.at(-1)!;
        assert.equal(sent.path, '/v1/messages');
        assertSameText(sent.raw, JSON.stringify(recorded.body), `turn ${turn}: the body reaches the upstream unchanged`);
        for (const name of ['anthropic-version', 'anthropic-beta']) assert.equal(sent.headers[name], recorded.headers[name], name);
        assertSameText(answer.text, sent.answered(), `turn ${turn}: the stream reaches Claude Code unchanged`);
        assert.ok(answer.text.includes(FAKE_SIGNATURE));
        const log = await logOfRequest(t.admin(), answer.requestId);
        assert.deepEqual([log.status, log.channel, log.usageEstimated], [200, 'anthropic', false]);
      }
    });

    it('the second turn really carries a system message within the conversation, the thinking block, its signature and the tool round trip', () => {
      const messages = claudeCode.requests[1]!.body['messages'];
      assert.deepEqual(messages.map((m: Json) => m['role']), ['user', 'system', 'assistant', 'user']);
      assert.match(JSON.stringify(messages[1].content), /# Environment/);
      const [assistant, result] = messages.slice(-2);
      assert.deepEqual(assistant.content.map((block: Json) => block['type']), ['thinking', 'tool_use']);
      assert.equal(assistant.content[0].signature, FAKE_SIGNATURE);
      assert.equal(result.content[0].type, 'tool_result');
      assert.equal(result.content[0].tool_use_id, assistant.content[1].id);
    });

    it('to an openai channel: converted to chat with every tool call answered in order, and back as a Messages stream', async () => {
      for (const [turn, recorded] of claudeCode.requests.entries()) {
        upstream.behaviour = turn === 0 ? { toolCall: { id: 'call_9', name: 'Read', arguments: '{"file_path":"hello.py"}' } } : { pieces: ['It prints ', 'hi.'] };
        const answer = await replay({ ...recorded, path: '/v1/messages' }, { ...recorded.body, model: 'claude-via-chat' }, 'x-api-key');
        assert.equal(answer.status, 200, answer.text);
        const sent = upstream.requests.at(-1)!;
        assert.equal(sent.path, '/v1/chat/completions');
        assert.equal(sent.body.model, 'qwen3-coder');
        assert.equal(sent.body.messages[0].role, 'system');
        assert.deepEqual(sent.body.messages.slice(1, 3).map((m: Json) => m['role']), ['user', 'system'], 'the system message within the conversation stays in its place');
        assert.match(sent.body.messages[2].content, /^# Environment/);
        assert.equal(sent.body.tools.length, recorded.body['tools'].length);
        assertChatToolPairs(sent.body.messages);
        const events = eventsOf(answer.text);
        assert.equal(events[0]!.event, 'message_start');
        assert.equal(events.at(-1)!.event, 'message_stop');
        const stop = events.find((e) => e.event === 'message_delta')!.data['delta']['stop_reason'];
        assert.equal(stop, turn === 0 ? 'tool_use' : 'end_turn');
        if (turn === 0) assert.ok(events.some((e) => e.data['content_block']?.type === 'tool_use' && e.data['content_block'].name === 'Read'));
      }
      const last = upstream.requests.at(-1)!.body.messages;
      const call = last.find((m: Json) => m['tool_calls'])!;
      assert.equal(call.tool_calls[0].id, 'toolu_01A', 'the recorded tool_use id goes up as the call id');
    });
  });

  describe('Codex CLI (Responses)', () => {
    it('the recorded requests hold what a converter must cope with: a namespace of tools, a built-in tool, reasoning, a call and its output', () => {
      const [first, second] = codex.requests;
      assert.deepEqual(new Set(first!.body['tools'].map((tool: Json) => tool['type'])), new Set(['function', 'namespace', 'web_search']));
      assert.deepEqual(second!.body['input'].slice(-3).map((item: Json) => item['type']), ['reasoning', 'function_call', 'function_call_output']);
    });

    it('to an upstream with the Responses API: the body byte for byte but the cap, the stream byte for byte', async () => {
      for (const [turn, recorded] of codex.requests.entries()) {
        upstream.behaviour = turn === 0 ? { toolCall: { id: 'call_02', name: 'exec_command', arguments: '{"cmd":"ls"}' } } : { pieces: ['It prints ', 'hi.'] };
        const answer = await replay(recorded);
        assert.equal(answer.status, 200, answer.text);
        const sent = upstream.requests.at(-1)!;
        assert.equal(sent.path, '/v1/responses');
        assertSameText(sent.raw, JSON.stringify({ ...recorded.body, max_output_tokens: DEFAULT_COMPLETION_CAP }), `turn ${turn}: only the account's cap is added`);
        assertSameText(answer.text, sent.answered(), `turn ${turn}: the stream reaches Codex unchanged`);
        assert.ok(answer.text.includes(FAKE_ENCRYPTED_REASONING));
      }
    });

    it('to a chat upstream: served (built-in tools left out, namespaced tools flattened), with calls and outputs in order', async () => {
      for (const [turn, recorded] of codex.requests.entries()) {
        const answer = await replay(recorded, { ...recorded.body, model: 'codex-via-chat' });
        assert.equal(answer.status, 200, answer.text);
        const sent = upstream.requests.at(-1)!.body;
        const names = sent.tools.map((tool: Json) => tool['function'].name);
        assert.ok(names.includes('exec_command') && names.includes('spawn_agent') && !names.includes('web_search'), names.join(', '));
        assert.ok(sent.tools.every((tool: Json) => tool['type'] === 'function'));
        assertChatToolPairs(sent.messages);
        const events = eventsOf(answer.text);
        assert.equal(events.at(-1)!.data['type'], 'response.completed', `turn ${turn}`);
      }
      const messages = upstream.requests.at(-1)!.body.messages as Json[];
      assert.deepEqual(messages.slice(-2).map((m) => m['role']), ['assistant', 'tool']);
      assert.match(messages.at(-1)!['content'], /print\('hi'\)/);
    });

    it('a call of a namespaced tool comes back with its namespace, streamed and not (Codex routes it by that)', async () => {
      const [first] = codex.requests;
      upstream.behaviour = { toolCall: { id: 'call_spawn', name: 'spawn_agent', arguments: '{"message":"look around"}' } };
      const streamed = eventsOf((await replay(first!, { ...first!.body, model: 'codex-via-chat' })).text);
      const done = streamed.find((e) => e.data['type'] === 'response.output_item.done' && e.data['item'].type === 'function_call')!;
      assert.deepEqual([done.data['item'].name, done.data['item'].namespace, done.data['item'].arguments], ['spawn_agent', 'multi_agent_v1', '{"message":"look around"}']);
      const whole = await replay(first!, { ...first!.body, model: 'codex-via-chat', stream: false });
      const call = (JSON.parse(whole.text) as Json)['output'].find((item: Json) => item['type'] === 'function_call');
      assert.deepEqual([call.name, call.namespace], ['spawn_agent', 'multi_agent_v1']);
      const plain = { ...first!.body, model: 'codex-via-chat', stream: false };
      upstream.behaviour = { toolCall: { id: 'call_exec', name: 'exec_command', arguments: '{"cmd":"ls"}' } };
      const top = (JSON.parse((await replay(first!, plain)).text) as Json)['output'].find((item: Json) => item['type'] === 'function_call');
      assert.deepEqual([top.name, top.namespace], ['exec_command', undefined], 'a top-level tool has no namespace');
    });
  });
});
