// What Claude Code sends beyond the simple bodies, through the gateway to an OpenAI-compatible upstream (converted
// to chat completions), with the official @anthropic-ai/sdk as an unchanged client: what reaches the upstream must
// be a request it accepts (DeepSeek, Gemini, OpenAI and OpenRouter each refuse something real clients send).
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { newChannel } from '../../support/channels.ts';
import { costOfTokens } from '../../../src/gateway/accounts/money.ts';
import { chatModel, logOfRequest, useGatewayWithUpstream } from './helpers.ts';

const tools = [{ name: 'Read', input_schema: { type: 'object' as const, properties: { file_path: { type: 'string' } } } }];
const [INPUT, CACHED, OUTPUT] = [1_000_000, 100_000, 2_000_000];
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('Claude Code on a chat upstream: the requests it sends, converted', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'chat', baseUrl: upstream.url, models: { 'claude-via-chat': 'deepseek-v4' } }));
    await admin.setModel(chatModel('claude-via-chat', INPUT, OUTPUT, { toolCalling: true, cachedInputPrice: CACHED }));
  });
  let upstream: FakeUpstream;
  let claude: Anthropic;
  before(() => {
    upstream = suite.upstream;
    claude = new Anthropic({ apiKey: suite.t.key, baseURL: suite.t.gw.url, maxRetries: 0 });
  });
  const sent = () => upstream.requests.at(-1)!.body;

  it('a tool result holding an image (Read of a picture, a screenshot) is served: its text as the tool message, its image in a user message after it', async () => {
    // Before: a 400 ("an image block cannot be converted"), on this turn and every later one of the conversation.
    const message = await claude.messages.create({
      model: 'claude-via-chat', max_tokens: 64, tools,
      messages: [
        { role: 'user', content: 'What is in shot.png?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'shot.png' } }, { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: 'b.png' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Read shot.png' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/b.png' } }] },
            { type: 'text', text: 'Describe both.' },
          ],
        },
      ],
    });
    assert.equal(message.type, 'message');
    assert.deepEqual(sent().messages.slice(2), [
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Read shot.png' },
      { role: 'tool', tool_call_id: 'toolu_2', content: '(an image, in the next message)' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
          { type: 'text', text: 'Describe both.' },
        ],
      },
    ]);
  });

  it('an empty text block is not sent as an empty message (Gemini refuses one)', async () => {
    await claude.messages.create({
      model: 'claude-via-chat', max_tokens: 64, tools,
      messages: [
        { role: 'user', content: 'Read a.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }, { type: 'text', text: '' }] },
      ],
    });
    assert.deepEqual(sent().messages.at(-1), { role: 'tool', tool_call_id: 'toolu_1', content: 'A' });
  });

  it("the thinking before an earlier turn's tool calls goes back as that message's reasoning_content (DeepSeek refuses the turn without it)", async () => {
    // Before: dropped, and DeepSeek's thinking models answered 400 "Missing reasoning_content field in the assistant message".
    await claude.messages.create({
      model: 'claude-via-chat', max_tokens: 2048, tools, thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        { role: 'user', content: 'Read a.' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should read a.', signature: '' }, { type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Done.', signature: '' }, { type: 'text', text: 'It says A.' }] },
        { role: 'user', content: 'Thanks.' },
      ],
    });
    assert.deepEqual(sent().messages.slice(1, 4), [
      { role: 'assistant', content: 'Reading.', reasoning_content: 'I should read a.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'A' },
      // A turn without tool calls needs none (DeepSeek ignores it there; stricter servers are spared the field).
      { role: 'assistant', content: 'It says A.' },
    ]);
  });

  it("metadata.user_id, Claude Code's long JSON, goes as a user OpenAI accepts (at most 64 characters), the same for the same id", async () => {
    // Before: sent as it came, and OpenAI refused every request: "Invalid 'user': string too long" (OpenRouter past 128).
    const user_id = JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: '00000000-0000-0000-0000-000000000000' });
    const users: string[] = [];
    for (let i = 0; i < 2; i++) {
      await claude.messages.create({ model: 'claude-via-chat', max_tokens: 16, metadata: { user_id }, messages: [{ role: 'user', content: 'hi' }] });
      users.push(sent().user);
    }
    assert.match(users[0]!, /^[0-9a-f]{64}$/);
    assert.equal(users[1], users[0]);
    await claude.messages.create({ model: 'claude-via-chat', max_tokens: 16, metadata: { user_id: 'user-7' }, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(sent().user, 'user-7', 'a short id goes as it came');
  });

  it("DeepSeek's cache hits (prompt_cache_hit_tokens) are cache reads: Claude Code is told so, and they are charged at the cached price", async () => {
    // Before: DeepSeek reports no cached_tokens, so its hits were charged at the full input price and reported as uncached.
    upstream.behaviour = { usage: { prompt_tokens: 100, completion_tokens: 3, prompt_cache_hit_tokens: 80, prompt_cache_miss_tokens: 20 } };
    const stream = claude.messages.stream({ model: 'claude-via-chat', max_tokens: 64, messages: [{ role: 'user', content: 'cached '.repeat(100) }] });
    const message = await stream.finalMessage();
    assert.deepEqual(message.usage, { input_tokens: 20, output_tokens: 3, cache_read_input_tokens: 80, cache_creation_input_tokens: 0 });
    const log = await logOfRequest(suite.t.admin(), (await stream.withResponse()).response.headers.get('x-request-id'));
    assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [100, 3, false]);
    assert.equal(log.cost, costOfTokens([[20, INPUT], [80, CACHED], [3, OUTPUT]]));
  });
});
