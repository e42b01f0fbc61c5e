// Activation and contributions: the API, every command, the @gateway participant, the LM provider vendor.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, EXTENSION_ID, VENDOR } from './helpers.ts';

type Manifest = {
  contributes: {
    commands: { command: string; title: string }[];
    chatParticipants: { id: string; name: string; commands?: { name: string }[] }[];
    languageModelChatProviders: { vendor: string; managementCommand?: string }[];
  };
};

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

  it('declares the @gateway participant with /models, /selftest and /balance', async () => {
    const { extension } = await activate();
    const participant = (extension.packageJSON as Manifest).contributes.chatParticipants.find((p) => p.name === 'gateway');
    assert.ok(participant, '@gateway is not declared');
    assert.equal(participant.id, 'model-gateway.gateway');
    assert.deepEqual(participant.commands?.map((c) => c.name).sort(), ['balance', 'models', 'selftest']);
  });

  it('declares the language-model provider (vendor model-gateway, managed by Set API Key)', async () => {
    const { extension } = await activate();
    const provider = (extension.packageJSON as Manifest).contributes.languageModelChatProviders.find((p) => p.vendor === VENDOR);
    assert.ok(provider, 'no provider for vendor model-gateway');
    assert.equal(provider.managementCommand, 'modelGateway.setApiKey');
  });
});
