// @gateway /balance at a gateway that has no billing endpoints (vLLM, LiteLLM, Ollama, OpenAI itself): the answer says
// the gateway does not report a balance, as the status bar does. It said "Path or model not found (404)" with a fix
// button for the base URL, which every chat there used fine. The real participant's handler, with a recording stream.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';
import { activate, askGateway, resetConfiguration, setKey, setSettings } from './helpers.ts';

describe('@gateway /balance without billing endpoints', () => {
  let api: ModelGatewayApi;
  let server: Listening;

  before(async () => {
    ({ api } = await activate());
    server = await listenOnLoopback(createServer((req, res) => {
      if (req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'served', object: 'model' }] }));
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
    }));
    await setSettings(api, { baseUrl: `${server.origin}/v1`, model: 'served' });
    await setKey(api, 'sk-suite-no-billing-0001');
  });

  after(async () => {
    await resetConfiguration(api);
    await server?.close();
  });

  it('says the gateway does not report a balance', async () => {
    const { markdown, buttons } = await askGateway(api, '', 'balance');
    assert.match(markdown, /does not report a balance/);
    assert.doesNotMatch(markdown, /Path or model not found/);
    assert.ok(buttons.includes('Open Console'), buttons.join(', '));
  });
});
