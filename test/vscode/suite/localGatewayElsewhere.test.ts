// Two VS Code windows share the extension's global storage, so the local gateway's data folder: the second window's
// "Start Local Gateway" finds the folder held by the first window's gateway. It should use that gateway (the settings
// and key are shared too), not fail with the CLI's "give this one another --data folder". The other window is played
// here by a gateway this test starts on the same folder.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { activate, resetConfiguration, setKey, setSettings, waitFor } from './helpers.ts';

describe('local gateway of another window', () => {
  let api: ModelGatewayApi;
  let other: RunningGateway | undefined;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    other = await startGateway({ dataDir: join(api.services.context.globalStorageUri.fsPath, 'gateway'), port: 0, bootstrap: true, issueKey: 'vscode' });
  });

  after(async () => {
    await api.localGateway.stop(true); // forget what the adoption remembered for Stop
    await resetConfiguration(api);
    await other?.stop();
  });

  it('"Start Local Gateway" uses the gateway another window runs on the same data folder', async () => {
    // What the first window left in the shared settings and secret storage: then the user points this window elsewhere.
    await setKey(api, other!.issuedKey!);
    await setSettings(api, { baseUrl: 'http://127.0.0.1:9', model: 'echo' });
    const url = await vscode.commands.executeCommand<string | undefined>('modelGateway.startLocalGateway');
    assert.equal(url, other!.url, 'the command answers with the running gateway');
    assert.equal(api.services.settings.current.baseUrl, other!.url);
    assert.equal(api.localGateway.running, undefined, 'this window does not own it');
    await waitFor('the connection to be configured', () => api.services.connection.state.configured || undefined);
    const client = await api.services.connection.require();
    assert.ok((await client.chatModels()).some((m) => m.id === 'echo'));
  });
});
