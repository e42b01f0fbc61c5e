// A key put in settings.json by hand, under a name the extension does not declare (modelGateway.apiKey
// is no longer contributed): the configuration API still reads it, and "Move to Secure Storage" stores
// it in SecretStorage and removes it from the file, in the user's settings and in the workspace's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, EXTENSION_ID, resetConfiguration, waitFor } from './helpers.ts';

/** Sets (or with undefined removes) one entry of a settings.json file, as a user editing it by hand would. */
function editSettingsFile(path: string, name: string, value: string | undefined): void {
  const current = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8') || '{}') as Record<string, unknown>) : {};
  if (value === undefined) delete current[name];
  else current[name] = value;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(current, null, 2));
}

describe('a key put in settings by hand, under an undeclared name', () => {
  let api: ModelGatewayApi;
  let userSettings: string;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    // User/globalStorage/<extension id> -> User/settings.json (the same layout in code-server and VS Code desktop).
    userSettings = join(api.services.context.globalStorageUri.fsPath, '..', '..', 'settings.json');
    assert.ok(existsSync(userSettings), `no user settings file at ${userSettings}`);
  });

  after(async () => {
    await resetConfiguration(api);
  });

  it('is not declared by the extension', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { configuration: { properties: Record<string, unknown> } } };
    assert.ok(manifest.contributes.configuration.properties['modelGateway.baseUrl'], 'the manifest lists the declared settings');
    assert.equal(manifest.contributes.configuration.properties['modelGateway.apiKey'], undefined);
  });

  it('is read from the user settings, moved to SecretStorage and removed from settings.json', async () => {
    // test/editor/in-editor.test.ts writes this key into User/settings.json before code-server starts, as a
    // user would by hand. (Written while it runs, from outside or through a WorkspaceEdit on the file,
    // code-server here neither notices the change nor accepts the edit, so the suite cannot add it itself.)
    const key = 'sk-suite-handwritten-user-0001';
    assert.equal(vscode.workspace.getConfiguration('modelGateway').inspect('apiKey')?.globalValue, key, 'inspect() reads an undeclared setting');
    assert.equal(vscode.workspace.getConfiguration('modelGateway').get('apiKey'), key, 'get() reads it too');
    assert.match(readFileSync(userSettings, 'utf8'), /sk-suite-handwritten-user-0001/);

    const moved = await vscode.commands.executeCommand<string[]>('modelGateway.moveKeyToSecretStorage');
    assert.deepEqual(moved, ['apiKey']);
    assert.equal(await api.services.apiKey.get(), key);
    assert.equal(vscode.workspace.getConfiguration('modelGateway').inspect('apiKey')?.globalValue, undefined);
    await waitFor('settings.json on disk without the key', () => !/modelGateway\.apiKey|sk-suite-handwritten/.test(readFileSync(userSettings, 'utf8')) || undefined);
  });

  it('is read from the workspace settings, moved to SecretStorage and removed from the folder\'s settings.json', async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the editor of this suite opens a workspace folder');
    const workspaceSettings = join(folder.uri.fsPath, '.vscode', 'settings.json');
    const key = 'sk-suite-handwritten-workspace-0002';
    editSettingsFile(workspaceSettings, 'modelGateway.apiKey', key);
    try {
      await waitFor('VS Code to read the workspace settings.json', () => vscode.workspace.getConfiguration('modelGateway').inspect('apiKey')?.workspaceValue === key || undefined);
      const moved = await vscode.commands.executeCommand<string[]>('modelGateway.moveKeyToSecretStorage');
      assert.deepEqual(moved, ['apiKey']);
      assert.equal(await api.services.apiKey.get(), key);
      assert.equal(vscode.workspace.getConfiguration('modelGateway').inspect('apiKey')?.workspaceValue, undefined);
      assert.doesNotMatch(readFileSync(workspaceSettings, 'utf8'), /modelGateway\.apiKey|sk-suite-handwritten/);
    } finally {
      editSettingsFile(workspaceSettings, 'modelGateway.apiKey', undefined);
    }
  });
});
