// A profile pairs a gateway with its key: switching profiles must never send one profile's key to the other's
// gateway, not even for the moment between the new base URL and the new key. The other gateway here records the
// Authorization of every request it gets.
// Windows share the profiles (global state), the settings and the keys: when another window switches profile, this
// one sees the other profile's base URL arrive in the settings. It must follow the switch (the new profile's key),
// not take the new base URL for an edit of its own profile: that wrote the home gateway's address into Default and
// sent the work key to the home gateway. The other window is played by writing what its switch writes.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { PROFILES_STATE_KEY } from '../../../src/extension/profiles/profiles.ts';
import type { ProfilesState } from '../../../src/extension/profiles/profiles.ts';
import { activate, resetConfiguration, startSuiteGateway, useSuiteGateway, VENDOR, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';
import { startRecordingGateway } from './recordingGateway.ts';
import type { RecordingGateway } from './recordingGateway.ts';

const HOME_KEY = 'sk-suite-home-profile-key-0001';

describe('profile switches and keys', () => {
  let api: ModelGatewayApi;
  let work: SuiteGateway;
  let home: RecordingGateway;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    work = await startSuiteGateway();
    home = await startRecordingGateway('home-model');
    await useSuiteGateway(api, work);
    await api.services.profiles.add({ name: 'Home', baseUrl: home.origin, model: 'home-model', completionModel: '' });
    await api.services.context.secrets.store('modelGateway.profile.Home.apiKey', HOME_KEY);
  });

  afterEach(async () => {
    if (api.services.profiles.state.active !== 'Default') await vscode.commands.executeCommand('modelGateway.switchProfile', 'Default');
    await waitFor('the connection back on the work key', () => (api.services.connection.secrets()[0] !== HOME_KEY && api.services.connection.state.root !== home.origin) || undefined);
    home.seen.length = 0;
  });

  after(async () => {
    if (api.services.profiles.state.active !== 'Default') await vscode.commands.executeCommand('modelGateway.switchProfile', 'Default');
    if (api.services.profiles.state.profiles.some((p) => p.name === 'Home')) await vscode.commands.executeCommand('modelGateway.removeProfile', 'Home');
    await resetConfiguration(api);
    await work?.stop();
    await home?.close();
  });

  it("the home gateway only ever gets the home key, and the work gateway's key stays at work", async () => {
    await vscode.lm.selectChatModels({ vendor: VENDOR }); // VS Code knows the provider's models, as when the picker was used
    await vscode.commands.executeCommand('modelGateway.switchProfile', 'Home');
    await waitFor('the connection to use the home key', () => (api.services.connection.secrets()[0] === HOME_KEY && api.services.connection.state.root === home.origin) || undefined);
    await waitFor('VS Code to list the home models', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).some((m) => m.family === 'home-model') || undefined);
    await api.balance.refreshNow();
    assert.ok(home.seen.length > 0, 'the home gateway was asked');
    assert.deepEqual([...new Set(home.seen)], [`Bearer ${HOME_KEY}`], 'the home gateway saw only the home key');
  });

  it('follows the switch: the home key at the home gateway, Default left as it was', async () => {
    await vscode.lm.selectChatModels({ vendor: VENDOR });
    // What the other window's switch writes: the active profile in global state, then that profile's settings.
    const state = api.services.context.globalState.get<ProfilesState>(PROFILES_STATE_KEY)!;
    await api.services.context.globalState.update(PROFILES_STATE_KEY, { ...state, active: 'Home' });
    const config = vscode.workspace.getConfiguration('modelGateway');
    await config.update('baseUrl', home.origin, vscode.ConfigurationTarget.Global);
    await config.update('model', 'home-model', vscode.ConfigurationTarget.Global);

    await waitFor('the connection to use the home key at the home gateway', () => (api.services.connection.secrets()[0] === HOME_KEY && api.services.connection.state.root === home.origin) || undefined);
    await waitFor('VS Code to list the home models', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).some((m) => m.family === 'home-model') || undefined);
    await api.balance.refreshNow();
    assert.equal(api.services.profiles.state.active, 'Home');
    assert.equal(api.services.profiles.state.profiles.find((p) => p.name === 'Default')?.baseUrl, work.gateway.url, 'Default keeps its gateway');
    assert.deepEqual([...new Set(home.seen)], [`Bearer ${HOME_KEY}`], 'the home gateway saw only the home key');
  });
});
