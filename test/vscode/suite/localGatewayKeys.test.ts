// Start and Stop Local Gateway swap the base URL and the key together: the gateway configured before (here a
// server that records the Authorization of every request) must never get the local gateway's key, not even in
// the moment between the restored base URL and the restored key.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, resetConfiguration, setKey, setSettings, VENDOR, waitFor } from './helpers.ts';
import { startRecordingGateway } from './recordingGateway.ts';
import type { RecordingGateway } from './recordingGateway.ts';

const REMOTE_KEY = 'sk-suite-remote-before-local-0001';

describe('local gateway and the keys of the gateway before it', () => {
  let api: ModelGatewayApi;
  let remote: RecordingGateway;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    remote = await startRecordingGateway('remote-model');
    await setSettings(api, { baseUrl: remote.origin, model: 'remote-model' });
    await setKey(api, REMOTE_KEY);
    await waitFor('VS Code to list the remote models', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).some((m) => m.family === 'remote-model') || undefined);
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.stopLocalGateway');
    await resetConfiguration(api);
    await remote?.close();
  });

  it('the gateway before gets only its own key, through a start and a stop of the local one', async () => {
    const url = await vscode.commands.executeCommand<string | undefined>('modelGateway.startLocalGateway');
    assert.ok(url, 'the local gateway started');
    await waitFor('VS Code to list the local models', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).some((m) => m.family === 'echo') || undefined);
    await api.balance.refreshNow();
    assert.equal(await vscode.commands.executeCommand<boolean>('modelGateway.stopLocalGateway'), true);
    await waitFor('the connection back on the remote key', () => (api.services.connection.secrets()[0] === REMOTE_KEY && api.services.connection.state.root === remote.origin) || undefined);
    await waitFor('VS Code to list the remote models again', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).some((m) => m.family === 'remote-model') || undefined);
    await api.balance.refreshNow();
    assert.ok(remote.seen.length > 0, 'the remote gateway was asked');
    assert.deepEqual([...new Set(remote.seen)], [`Bearer ${REMOTE_KEY}`], 'the remote gateway saw only its own key');
  });
});
