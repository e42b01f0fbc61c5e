// The API key in SecretStorage (never in settings) and settings changes taking effect at once.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, resetConfiguration, setKey, setSettings } from './helpers.ts';

describe('secrets and settings', () => {
  let api: ModelGatewayApi;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
  });

  after(async () => {
    await resetConfiguration(api);
  });

  it('stores the API key in SecretStorage, trimmed, and reads it back', async () => {
    const result = await api.services.apiKey.set('  sk-suite-secret-1  ');
    assert.equal(result.trimmed, true);
    assert.equal(await api.services.apiKey.get(), 'sk-suite-secret-1');
    assert.equal(await api.services.apiKey.has(), true);
    const inSettings = vscode.workspace.getConfiguration('modelGateway').inspect('apiKey');
    // (The user settings of this suite hold a hand-written key, moved by undeclaredKey.test.ts: compare values.)
    assert.notEqual(inSettings?.globalValue, 'sk-suite-secret-1', 'the key must never land in user settings');
    assert.notEqual(inSettings?.workspaceValue, 'sk-suite-secret-1', 'the key must never land in workspace settings');
  });

  it('refuses a blank key', async () => {
    await assert.rejects(api.services.apiKey.set('   '), (error: { code?: string }) => error.code === 'missing_api_key');
    assert.equal(await api.services.apiKey.get(), 'sk-suite-secret-1', 'the stored key is kept');
  });

  it('tells its connection when the key changes, and clears it', async () => {
    await setKey(api, 'sk-suite-secret-2');
    assert.deepEqual([...api.services.connection.secrets()], ['sk-suite-secret-2']);
    await vscode.commands.executeCommand('modelGateway.clearApiKey');
    assert.equal(await api.services.apiKey.get(), undefined);
    assert.equal(api.services.connection.state.hasKey, false);
  });

  it('picks up settings changes at once (base URL, model, not-configured state)', async () => {
    await setKey(api, 'sk-suite-secret-3');
    const changes: string[] = [];
    const listener = api.services.settings.onDidChange((s) => changes.push(s.baseUrl));
    try {
      await setSettings(api, { baseUrl: 'http://127.0.0.1:9/v1/', model: 'suite-model' });
      assert.equal(api.services.connection.state.root, 'http://127.0.0.1:9');
      assert.equal(api.services.connection.state.configured, true);
      assert.ok(api.services.connection.client(), 'a client once base URL and key are set');
      assert.ok(changes.includes('http://127.0.0.1:9/v1/'), 'onDidChange fired with the new base URL');

      await setSettings(api, { baseUrl: undefined });
      assert.equal(api.services.connection.state.configured, false);
      assert.deepEqual([...api.services.connection.state.missing], ['baseUrl']);
      assert.equal(api.services.connection.client(), undefined);
    } finally {
      listener.dispose();
    }
  });
});
