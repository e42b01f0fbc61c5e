// The client's bodyDefaults (the extension's modelGateway.modelParameters): added to chat, streamed chat and
// completion bodies for their model, under the request's own fields; read at each request. A loopback server records
// the bodies as sent.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { GatewayClient } from '../../../src/client/index.ts';
import { listenOnLoopback, type Listening } from '../../support/loopback.ts';

describe('client: the user\'s parameters per model in request bodies', () => {
  const bodies: Array<Record<string, unknown>> = [];
  let server: Listening;
  let parameters: Record<string, Record<string, unknown>> = {};
  let client: GatewayClient;

  before(async () => {
    server = await listenOnLoopback(createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
        bodies.push(body);
        const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
        if (req.url === '/v1/completions') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c', object: 'text_completion', created: 0, model: body.model, choices: [{ index: 0, text: 'x', finish_reason: 'stop' }], usage }));
        if (body.stream === true) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }], usage }));
      });
    }));
    client = new GatewayClient({ baseUrl: server.origin, apiKey: 'sk-test-params', maxRetries: 0, bodyDefaults: (model) => parameters[model] ?? {} });
  });
  after(() => server.close());

  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('adds them to a chat, a streamed chat and a completion for that model only', async () => {
    parameters = { qwen: { enable_thinking: false, temperature: 0.1 } };
    await client.chat({ model: 'qwen', messages });
    for await (const _ of client.chatStream({ model: 'qwen', messages, stream: true })) void _;
    await client.completion({ model: 'qwen', prompt: 'def f(', max_tokens: 16 });
    await client.chat({ model: 'other', messages });
    assert.deepEqual(bodies.slice(-4).map((b) => [b.model, b.enable_thinking, b.temperature, b.stream]), [
      ['qwen', false, 0.1, false],
      ['qwen', false, 0.1, true],
      ['qwen', false, 0.1, false],
      ['other', undefined, undefined, false],
    ]);
  });

  it('keeps what the request sets itself, and follows a change at the next request', async () => {
    parameters = { qwen: { max_tokens: 4096, temperature: 0.1 } };
    await client.completion({ model: 'qwen', prompt: 'def f(', max_tokens: 16 });
    assert.equal(bodies.at(-1)!.max_tokens, 16, 'the request\'s own max_tokens');
    assert.equal(bodies.at(-1)!.temperature, 0.1);
    parameters = { qwen: { temperature: 0.7 } };
    await client.chat({ model: 'qwen', messages });
    assert.equal(bodies.at(-1)!.temperature, 0.7);
    assert.deepEqual(bodies.at(-1)!.messages, messages);
  });
});
