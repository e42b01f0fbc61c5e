// Stopping an answer in VS Code (the Stop button: the request's CancellationToken) closes the HTTP request to the
// gateway at once, through the real extension host: an upstream that streams one word and then holds the stream
// open sees its client leave, and the response ends without the rest.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';
import { activate, resetConfiguration, setKey, setSettings, VENDOR, waitFor } from './helpers.ts';

describe('stopping a language-model answer', () => {
  let api: ModelGatewayApi;
  let server: Listening;
  let left: Promise<void>;

  before(async () => {
    ({ api } = await activate());
    let leave!: () => void;
    left = new Promise((resolve) => (leave = resolve));
    // An OpenAI-style gateway: one model; a chat answer streams "Hello" and then holds; nothing else exists.
    server = await listenOnLoopback(createServer((req, res) => {
      if (req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'held', object: 'model' }] }));
      if (req.url !== '/v1/chat/completions') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here","type":"x"}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'held', choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] })}\n\n`);
      res.on('close', () => leave());
    }));
    await setSettings(api, { baseUrl: server.origin, model: 'held' });
    await setKey(api, 'sk-suite-held-stream-0001');
  });

  after(async () => {
    await resetConfiguration(api);
    await server?.close();
  });

  it('the token cancelled after the first words closes the connection to the gateway', async () => {
    const [held] = await waitFor('the held model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.family === 'held'));
    assert.ok(held, 'no model "held"');
    const source = new vscode.CancellationTokenSource();
    const response = await held.sendRequest([vscode.LanguageModelChatMessage.User('talk for ever')], { justification: 'in-editor test' }, source.token);
    let text = '';
    // The answer ends at the Stop, as an end or as VS Code's cancellation; any other error fails the test.
    const reading = (async (): Promise<string> => {
      try {
        for await (const part of response.text) {
          text += part;
          source.cancel(); // the Stop button
        }
        return 'ended';
      } catch (error) {
        if (error instanceof vscode.CancellationError || (error instanceof Error && /cancel/i.test(`${error.name} ${error.message}`))) return 'cancelled';
        throw error;
      }
    })();
    const gone = await Promise.race([left.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10000))]);
    assert.equal(gone, true, 'the gateway still holds the request 10 s after Stop');
    assert.match(await reading, /^(ended|cancelled)$/);
    assert.equal(text, 'Hello');
    source.dispose();
  });
});
