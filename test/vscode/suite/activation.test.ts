// Activation: the API, every declared command registered, the @gateway participant and the LM provider registered at run time.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, EXTENSION_ID, resetConfiguration, VENDOR, waitFor } from './helpers.ts';

type Manifest = { contributes: { commands: { command: string; title: string }[] } };

describe('activation', () => {
  it('activates and returns its API (services, local gateway)', async () => {
    const { extension, api } = await activate();
    assert.equal(extension.id, EXTENSION_ID);
    assert.equal(extension.isActive, true);
    assert.ok(api.services.settings, 'services.settings');
    assert.ok(api.services.apiKey, 'services.apiKey');
    assert.ok(api.services.connection, 'services.connection');
    assert.ok(api.localGateway, 'localGateway');
  });

  it('registers every command of its manifest', async () => {
    const { extension } = await activate();
    const declared = (extension.packageJSON as Manifest).contributes.commands.map((c) => c.command);
    assert.ok(declared.length >= 10, `only ${declared.length} commands declared`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
    for (const id of ['modelGateway.setApiKey', 'modelGateway.clearApiKey', 'modelGateway.runSelfTest', 'modelGateway.pickModel', 'modelGateway.startLocalGateway', 'modelGateway.stopLocalGateway']) {
      assert.ok(registered.has(id), id);
    }
  });

  it('creates the @gateway participant at run time, with its icon', async () => {
    const { api } = await activate();
    assert.equal(api.chatParticipant.id, 'model-gateway.gateway');
    assert.ok(api.chatParticipant.iconPath instanceof vscode.Uri, 'the participant has its icon');
  });

  it('has its language-model provider registered at run time: vscode.lm lists the gateway\'s models once one is configured', async () => {
    const { api } = await activate();
    await resetConfiguration(api);
    try {
      assert.deepEqual(await vscode.lm.selectChatModels({ vendor: VENDOR }), [], 'no models while nothing is configured');
      await vscode.commands.executeCommand('modelGateway.startLocalGateway');
      const models = await waitFor('the gateway models in vscode.lm', async () => {
        const found = await vscode.lm.selectChatModels({ vendor: VENDOR });
        return found.length > 0 ? found : undefined;
      });
      assert.ok(models.every((m) => m.vendor === VENDOR));
      assert.ok(models.some((m) => m.id === 'echo' || m.family === 'echo'), models.map((m) => m.id).join(', '));
    } finally {
      await resetConfiguration(api);
    }
  });
});
