// @gateway /compare in a real editor: the same question to each model of modelGateway.compareModels, their answers
// one after the other with the time, tokens and cost of each, and a table of them all. A stand-in gateway answers
// each model with its own text (and does not serve one), and records what each was asked.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, askGateway, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway } from './recordingGateway.ts';
import type { RecordingGateway } from './recordingGateway.ts';

describe('@gateway /compare', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'model-a', (model) => (model === 'missing-model' ? null : `Answer of ${model}.`));
  });

  after(async () => {
    await setCompareModels(undefined);
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  async function setCompareModels(models: string[] | undefined): Promise<void> {
    await vscode.workspace.getConfiguration('modelGateway').update('compareModels', models, vscode.ConfigurationTarget.Global);
    await waitFor('the extension to read the models to compare', () => api.services.settings.current.compareModels.join() === (models ?? []).join() || undefined);
  }

  const ask = (prompt: string) => askGateway(api, prompt, 'compare');

  it('without two models to compare, offers the picker and asks nothing', async () => {
    await setCompareModels(['model-a']);
    const asked = gateway.chats.length;
    const answer = await ask('which is faster?');
    assert.match(answer.markdown, /asks two or more gateway models the same question/);
    assert.deepEqual(answer.buttons, ['Pick Models to Compare']);
    assert.equal(gateway.chats.length, asked);
  });

  it('asks each model the same question and shows each answer with its time, tokens and cost, then a table', async () => {
    await setCompareModels(['model-a', 'model-b']);
    const asked = gateway.chats.length;
    const { markdown, buttons } = await ask('which is faster?');
    const sent = gateway.chats.slice(asked);
    assert.deepEqual(sent.map((c) => c.model).sort(), ['model-a', 'model-b']);
    assert.deepEqual(sent[0]!.messages, sent[1]!.messages, 'the same question to both');
    assert.deepEqual(sent[0]!.messages.at(-1), { role: 'user', content: 'which is faster?' });
    const a = markdown.indexOf('### model-a\n\nAnswer of model-a.');
    const b = markdown.indexOf('### model-b\n\nAnswer of model-b.');
    assert.ok(a >= 0 && b > a, markdown);
    assert.match(markdown, /_first token after \d+ ms · \d+ ms in all · 10 \+ 2 tokens · \$0\.000042_/);
    assert.deepEqual(buttons, ['Chat with model-a', 'Chat with model-b']);
    await vscode.commands.executeCommand('modelGateway.useModel', 'model-b');
    await waitFor('the chat model to be model-b', () => api.services.settings.current.model === 'model-b' || undefined);
    assert.match(markdown, /\| Model \| First token \| In all \| Tokens \(in \+ out\) \| Cost \|\n\| --- \| --- \| --- \| --- \| --- \|\n\| `model-a` \| \d+ ms \| \d+ ms \| 10 \+ 2 \| \$0\.000042 \|\n\| `model-b` \|/);
  });

  it('a model that fails says why in its place, and the others still answer', async () => {
    await setCompareModels(['missing-model', 'model-b']);
    const { markdown, buttons } = await ask('which is faster?');
    assert.deepEqual(buttons, ['Chat with model-b'], 'no button for the model that failed');
    assert.match(markdown, /### missing-model\n\n_missing-model failed: [^\n]*_/);
    assert.match(markdown, /### model-b\n\nAnswer of model-b\./);
    assert.match(markdown, /\| `missing-model` \| failed \|/);
  });
});
