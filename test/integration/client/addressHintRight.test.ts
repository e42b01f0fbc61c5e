// A 404 from a gateway whose address is right but which lacks the endpoint asked for (vLLM, LiteLLM, Ollama and
// OpenAI itself have no billing endpoints, so @gateway /balance gets a 404 there). The hint must not send the user to
// the base URL: before, it said "No OpenAI-compatible API answered at .../v1 or the usual other forms" while that
// very address answered every chat. Real HTTP on loopback; the server answers like FastAPI for what it lacks.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { GatewayClient, NotFoundError } from '../../../src/client/index.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';

describe('client address hint when the address is right', () => {
  let server: Listening;
  before(async () => {
    server = await listenOnLoopback(createServer((req, res) => {
      if (req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'served', object: 'model' }] }));
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
    }));
  });
  after(async () => {
    await server?.close();
  });

  it('a missing billing endpoint at the right address: the hint says the address is right', async () => {
    const client = new GatewayClient({ baseUrl: `${server.origin}/v1`, apiKey: 'sk-any-key-0000000000', maxRetries: 0 });
    try {
      const error = await client.balance().then(() => assert.fail('a balance was read'), (e: unknown) => e);
      assert.ok(error instanceof NotFoundError);
      assert.doesNotMatch(error.hint ?? '', /No OpenAI-compatible API answered/);
      assert.match(error.hint ?? '', new RegExp(`The base URL is right: the API answers at ${server.origin}/v1`));
    } finally {
      await client.close();
    }
  });

  it('a wrong form of the address still gets the form that works', async () => {
    const client = new GatewayClient({ baseUrl: `${server.origin}/v1/v1`, apiKey: 'sk-any-key-0000000000', maxRetries: 0 });
    try {
      const error = await client.models().then(() => assert.fail('models were listed'), (e: unknown) => e);
      assert.ok(error instanceof NotFoundError);
      assert.match(error.hint ?? '', /ends in \/v1\/v1/);
    } finally {
      await client.close();
    }
  });
});
