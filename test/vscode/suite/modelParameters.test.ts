// modelGateway.modelParameters in a real editor: the fields set for a model go with @gateway's requests and with a
// request made through VS Code's language-model API (the chat model picker's path), "*" for every model, a change
// applying at the next request. A stand-in gateway records the bodies as sent.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { LM_VENDOR } from '../../../src/extension/ids.ts';
import { activate, askGateway, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway, type RecordingGateway } from './recordingGateway.ts';

describe('model parameters (modelGateway.modelParameters)', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  const setParameters = async (value: unknown) => {
    await vscode.workspace.getConfiguration('modelGateway').update('modelParameters', value, vscode.ConfigurationTarget.Global);
    await waitFor('the extension to read the setting', () => JSON.stringify(api.services.settings.current.modelParameters) === JSON.stringify(value ?? {}) || undefined);
  };

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'params-model', 'fine');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('modelParameters', undefined, vscode.ConfigurationTarget.Global);
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  it('@gateway sends the model\'s own fields over "*", and never in place of its own messages', async () => {
    await setParameters({ '*': { temperature: 0.3, top_p: 0.5 }, 'params-model': { temperature: 0.1, enable_thinking: false, messages: [] }, 'other-model': { seed: 7 } });
    await askGateway(api, 'hello with parameters');
    const body = gateway.chats.at(-1)! as unknown as Record<string, unknown>;
    assert.deepEqual([body.temperature, body.top_p, body.enable_thinking, body.seed], [0.1, 0.5, false, undefined]);
    assert.equal((body.messages as Array<{ content: unknown }>).at(-1)!.content, 'hello with parameters');
  });

  it('a request through vscode.lm (the chat model picker) carries them too; a change applies at the next request', async () => {
    const [model] = await waitFor('the stand-in\'s model in vscode.lm', async () => {
      const found = (await vscode.lm.selectChatModels({ vendor: LM_VENDOR })).filter((m) => m.family === 'params-model');
      return found.length > 0 ? found : undefined;
    });
    await setParameters({ 'params-model': { reasoning_effort: 'low' } });
    const source = new vscode.CancellationTokenSource();
    try {
      const response = await model!.sendRequest([vscode.LanguageModelChatMessage.User('through the picker')], {}, source.token);
      for await (const _ of response.text) void _;
    } finally {
      source.dispose();
    }
    const body = gateway.chats.at(-1)! as unknown as Record<string, unknown>;
    assert.equal(body.reasoning_effort, 'low');
    assert.equal(body.temperature, undefined, 'the earlier setting is gone');
  });
});
