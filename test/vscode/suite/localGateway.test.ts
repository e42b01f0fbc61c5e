// "Start Local Gateway", then the gateway's models through vscode.lm, a chat request and a tool call
// through vscode.lm answered by the echo model, and "Stop".
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, readText, resetConfiguration, VENDOR, waitFor } from './helpers.ts';

describe('local gateway and language models', () => {
  let api: ModelGatewayApi;
  let url: string | undefined;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
  });

  after(async () => {
    await resetConfiguration(api);
  });

  it('offers no models while nothing is configured', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.deepEqual(models.map((m) => m.id), []);
  });

  it('"Start Local Gateway" starts the bundled gateway and points the extension at it', async () => {
    url = await vscode.commands.executeCommand<string | undefined>('modelGateway.startLocalGateway');
    assert.ok(url, 'the command returned no address');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(api.services.settings.current.baseUrl, url);
    assert.equal(api.services.settings.current.model, 'echo');
    assert.equal(await api.services.apiKey.has(), true, 'a key was stored');
    await waitFor('the connection to be configured', () => api.services.connection.state.configured || undefined);
    const status = await fetch(`${url}/api/status`);
    assert.equal(status.status, 200);
  });

  it('returns the gateway\'s models through vscode.lm.selectChatModels', async () => {
    const models = await waitFor('the gateway models in vscode.lm', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: VENDOR });
      return found.some((m) => m.id === 'echo' || m.family === 'echo') ? found : undefined;
    });
    assert.deepEqual(models.map((m) => m.id), ['echo'], 'exactly the models the local gateway serves');
    // From the gateway's /v1/models entry, not a default: context_length 32768 less the 8192 kept for the answer.
    assert.equal(models[0]!.maxInputTokens, 32_768 - 8_192);
  });

  it('answers a chat request through vscode.lm with the echo model', async () => {
    const [echo] = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id === 'echo' || m.family === 'echo');
    assert.ok(echo, 'no echo model');
    const source = new vscode.CancellationTokenSource();
    try {
      const response = await echo.sendRequest([vscode.LanguageModelChatMessage.User('hello from the in-editor suite')], { justification: 'in-editor integration test' }, source.token);
      const text = await readText(response);
      assert.equal(text.trim(), 'You said: hello from the in-editor suite');
    } finally {
      source.dispose();
    }
  });

  it('sends an attached image to the echo model, which takes images (its /v1/models entry says so)', async () => {
    const [echo] = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id === 'echo' || m.family === 'echo');
    assert.ok(echo, 'no echo model');
    // LanguageModelDataPart is in VS Code since 1.105, after the @types/vscode this project builds against.
    const DataPart = (vscode as unknown as { LanguageModelDataPart?: { image(data: Uint8Array, mime: string): unknown } }).LanguageModelDataPart;
    assert.ok(DataPart, 'this VS Code has no LanguageModelDataPart');
    // A whole 1x1 PNG: the workbench decodes (and may resize) an image before it reaches a provider, and refuses a broken one.
    const png = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
    const message = vscode.LanguageModelChatMessage.User([new vscode.LanguageModelTextPart('what is this?'), DataPart.image(png, 'image/png')] as vscode.LanguageModelTextPart[]);
    const source = new vscode.CancellationTokenSource();
    try {
      const text = await readText(await echo.sendRequest([message], { justification: 'in-editor integration test' }, source.token));
      assert.equal(text.trim(), 'You said: what is this? (and 1 image)');
    } finally {
      source.dispose();
    }
  });

  it('round-trips a tool call through vscode.lm with the echo model (tool call part -> tool result -> text)', async () => {
    const [echo] = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id === 'echo' || m.family === 'echo');
    assert.ok(echo, 'no echo model');
    const tools: vscode.LanguageModelChatTool[] = [
      { name: 'mg_suite_lookup', description: 'Looks a word up', inputSchema: { type: 'object', properties: { word: { type: 'string' } } } },
    ];
    const ask = vscode.LanguageModelChatMessage.User('please call mg_suite_lookup {"word": "gateway"}');
    const source = new vscode.CancellationTokenSource();
    try {
      const first = await echo.sendRequest([ask], { justification: 'in-editor integration test', tools }, source.token);
      const calls: vscode.LanguageModelToolCallPart[] = [];
      let text = '';
      for await (const part of first.stream) {
        if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
        else if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      }
      assert.equal(text, '');
      assert.equal(calls.length, 1);
      assert.equal(calls[0]!.name, 'mg_suite_lookup');
      assert.deepEqual(calls[0]!.input, { word: 'gateway' });
      const second = await echo.sendRequest(
        [
          ask,
          vscode.LanguageModelChatMessage.Assistant([calls[0]!]),
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0]!.callId, [new vscode.LanguageModelTextPart('a way through')])]),
        ],
        { justification: 'in-editor integration test', tools },
        source.token,
      );
      assert.equal((await readText(second)).trim(), 'Tool mg_suite_lookup returned: a way through');
    } finally {
      source.dispose();
    }
  });

  it('counts tokens for the echo model', async () => {
    const [echo] = (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id === 'echo' || m.family === 'echo');
    const text = 'one two three four';
    // The provider's estimate: about four characters per token.
    assert.equal(await echo!.countTokens(text), Math.ceil(text.length / 4));
    // Chinese: about one token per character (a quarter made VS Code overfill the model's context).
    assert.equal(await echo!.countTokens('模型网关'), 4);
    assert.equal(await echo!.countTokens(vscode.LanguageModelChatMessage.User('模型网关')), 4);
  });

  it('"Stop Local Gateway" stops it and puts the previous settings back', async () => {
    const stopped = await vscode.commands.executeCommand<boolean>('modelGateway.stopLocalGateway');
    assert.equal(stopped, true);
    assert.equal(api.services.settings.current.baseUrl, '');
    assert.equal(await api.services.apiKey.has(), false);
    await assert.rejects(fetch(`${url}/api/status`));
  });
});
