// What the formats do not allow, from either side, is never a fault of the gateway (500): a client's body nested
// deeper than anything reads, or a null where a tool or a content part belongs in a request the gateway converts,
// is the client's 400; an upstream answer or event with a null where a choice, a call or a block belongs is an
// unusable answer, 502 upstream_error, not tried again on other channels (it may be a fault of ours on a valid
// answer: the stack goes to the operator's log, and no channel is held responsible).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_JSON_DEPTH } from '../../../src/wire/jsonDepth.ts';
import { newChannel } from '../../support/channels.ts';
import { call, chatBody, chatModel, logOfRequest, startTestGateway, type Started } from '../gateway/helpers.ts';

/** An upstream that answers what the test says, JSON or an event stream, whatever was asked. */
function rawUpstream(): { server: Server; url: () => string; answer: { body: string; stream: boolean }; readonly requests: number } {
  const answer = { body: '{}', stream: false };
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': answer.stream ? 'text/event-stream' : 'application/json' });
      res.end(answer.body);
    });
  });
  return { server, answer, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, get requests() { return requests; } };
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('relay: what the formats do not allow is the client\'s 400 or the upstream\'s 502, never a 500', () => {
  let t: Started;
  const raw = rawUpstream();
  const backup = rawUpstream();
  const lines: string[] = [];
  before(async () => {
    await new Promise<void>((resolve) => raw.server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => backup.server.listen(0, '127.0.0.1', resolve));
    t = await startTestGateway({ log: (line) => lines.push(line) });
    await t.admin().addChannel(newChannel({ name: 'raw-openai', baseUrl: raw.url(), priority: 10, models: { 'raw-gpt': 'raw-gpt' } }));
    // Tried only if the first channel's answer were held against it.
    await t.admin().addChannel(newChannel({ name: 'backup-openai', baseUrl: backup.url(), priority: 0, models: { 'raw-gpt': 'raw-gpt' } }));
    await t.admin().addChannel(newChannel({ name: 'raw-claude', type: 'anthropic', baseUrl: raw.url(), models: { 'raw-claude': 'raw-claude' } }));
    for (const name of ['raw-gpt', 'raw-claude']) await t.admin().setModel(chatModel(name, 1_000_000, 2_000_000, { toolCalling: true }));
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => raw.server.close(resolve));
    await new Promise((resolve) => backup.server.close(resolve));
  });

  it(`a body nested deeper than ${MAX_JSON_DEPTH} levels is 400 on every endpoint; as deep as that is read`, async () => {
    const deep = nested(5000);
    for (const [path, body] of [
      ['/v1/chat/completions', `{"model":"raw-gpt","messages":[{"role":"user","content":"hi"}],"x":${deep}}`],
      ['/v1/messages', `{"model":"raw-claude","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"x":${deep}}`],
      ['/v1/messages/count_tokens', `{"model":"raw-claude","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"t","input_schema":${deep}}]}`],
      ['/v1/responses', `{"model":"raw-gpt","input":"hi","x":${deep}}`],
      ['/v1/embeddings', `{"model":"echo-embedding","input":"hi","x":${deep}}`],
    ] as const) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body, headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' } });
      assert.equal(answer.status, 400, `${path}: ${answer.text.slice(0, 300)}`);
      assert.match(answer.text, /nests objects and arrays deeper than 256 levels/);
    }
    raw.answer.body = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'raw-gpt', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1 } });
    raw.answer.stream = false;
    const atTheLimit = `{"model":"raw-gpt","messages":[{"role":"user","content":"hi"}],"x":${nested(MAX_JSON_DEPTH - 1)}}`; // the body object and 255 arrays: 256 levels
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: atTheLimit, headers: { 'content-type': 'application/json' } })).status, 200);
  });

  it('a null where a tool, a call or a content part belongs, in a request converted for its channel, is 400 invalid_request naming why', async () => {
    for (const [path, body] of [
      ['/v1/chat/completions', chatBody('raw-claude', 'hi', { tools: [null] })],
      ['/v1/chat/completions', { model: 'raw-claude', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [null] }, { role: 'user', content: 'go on' }] }],
      ['/v1/messages', { model: 'raw-gpt', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [null] }] }] }],
      ['/v1/responses', { model: 'raw-gpt', input: [{ role: 'user', content: [null] }] }],
      ['/v1/responses', { model: 'raw-claude', input: [{ role: 'user', content: [null] }] }],
    ] as const) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body, headers: { 'anthropic-version': '2023-06-01' } });
      assert.equal(answer.status, 400, `${path} ${JSON.stringify(body)}: ${answer.text.slice(0, 300)}`);
      assert.doesNotMatch(answer.text, /internal/i);
    }
  });

  it('an upstream answer with a null where a call or a block belongs is 502 upstream_error, whole or streamed', async () => {
    const chatAnswer = (message: object) => JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'raw-gpt', choices: [{ index: 0, message, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 1 } });
    const cases = [
      { path: '/v1/messages', model: 'raw-gpt', stream: false, body: chatAnswer({ role: 'assistant', content: null, tool_calls: [null] }) },
      { path: '/v1/responses', model: 'raw-gpt', stream: false, body: chatAnswer({ role: 'assistant', content: null, tool_calls: [null] }) },
      { path: '/v1/chat/completions', model: 'raw-claude', stream: false, body: JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'raw-claude', content: [null, { type: 'text', text: 'x' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 1 } }) },
      { path: '/v1/messages', model: 'raw-gpt', stream: true, body: `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'raw-gpt', choices: [{ index: 0, delta: { tool_calls: [null] } }] })}\n\ndata: [DONE]\n\n` },
      { path: '/v1/responses', model: 'raw-gpt', stream: true, body: `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'raw-gpt', choices: [null] })}\n\ndata: [DONE]\n\n` },
    ];
    for (const c of cases) {
      raw.answer.body = c.body;
      raw.answer.stream = c.stream;
      const body = c.path === '/v1/messages' ? { model: c.model, max_tokens: 5, stream: c.stream, messages: [{ role: 'user', content: 'hi' }] }
        : c.path === '/v1/responses' ? { model: c.model, input: 'hi', stream: c.stream } : chatBody(c.model, 'hi', { stream: c.stream });
      const answer = await call(t.gw, 'POST', c.path, { key: t.key, body, headers: { 'anthropic-version': '2023-06-01' } });
      assert.equal(answer.status, 502, `${c.path} ${c.model} stream=${c.stream}: ${answer.text.slice(0, 300)}`);
      const id = answer.headers.get('x-request-id');
      const log = await logOfRequest(t.admin(), id);
      assert.deepEqual([log.status, log.errorCode, log.cost, log.attempts], [502, 'upstream_error', 0, null], c.path);
      assert.ok(lines.some((line) => line.startsWith(`internal error (request id: ${id}): TypeError`)), `the stack in the operator's log: ${c.path}`);
    }
    assert.deepEqual(backup.requests, 0, 'no other channel was tried');
  });

  it("a tool call's arguments nested deeper than anything writes (inside their string) go as text, both ways, never a 500", async () => {
    const deepArguments = `{"a":${nested(100_000)}}`;
    raw.answer.stream = false;
    raw.answer.body = JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'raw-claude', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 1 } });
    const asked = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: { model: 'raw-claude', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: deepArguments } }] }, { role: 'tool', tool_call_id: 'c1', content: 'done' }] } });
    assert.equal(asked.status, 200, asked.text.slice(0, 300));
    raw.answer.body = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'raw-gpt', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: deepArguments } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 1 } });
    const answered = await call(t.gw, 'POST', '/v1/messages', { key: t.key, headers: { 'anthropic-version': '2023-06-01' }, body: { model: 'raw-gpt', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(answered.status, 200, answered.text.slice(0, 300));
    assert.deepEqual(answered.json.content[0].input, { arguments: deepArguments });
  });
});
