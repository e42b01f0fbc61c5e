// Profiles in the real editor: the settings became the Default profile on activation; switching to
// another profile re-targets the connection (base URL and key), the models VS Code lists, the balance and
// the Usage view, and switching back restores the first profile's key and settings.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { PROFILES_STATE_KEY } from '../../../src/extension/profiles/profiles.ts';
import { activate, resetConfiguration, startSuiteGateway, useSuiteGateway, VENDOR, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('profiles', () => {
  let api: ModelGatewayApi;
  let work: SuiteGateway;
  let home: SuiteGateway;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    work = await startSuiteGateway();
    home = await startSuiteGateway();
  });

  after(async () => {
    if (api.services.profiles.state.active !== 'Default') await vscode.commands.executeCommand('modelGateway.switchProfile', 'Default');
    if (api.services.profiles.state.profiles.some((p) => p.name === 'Home')) await vscode.commands.executeCommand('modelGateway.removeProfile', 'Home');
    await resetConfiguration(api);
    await work?.stop();
    await home?.stop();
  });

  it('made the settings the Default profile on activation, stored, with nothing asked', () => {
    const stored = api.services.context.globalState.get<{ active: string; profiles: { name: string }[] }>(PROFILES_STATE_KEY);
    assert.equal(stored?.active, 'Default');
    assert.deepEqual(stored?.profiles.map((p) => p.name), ['Default']);
  });

  it('switches chat, models, balance and key to another gateway, and back', async () => {
    await useSuiteGateway(api, work);
    await waitFor('Default to follow the settings', () => api.services.profiles.active.baseUrl === work.gateway.url || undefined);
    await api.services.profiles.add({ name: 'Home', baseUrl: home.gateway.url, model: 'echo', completionModel: 'echo-completion' });

    await vscode.commands.executeCommand('modelGateway.switchProfile', 'Home');
    assert.equal(api.services.settings.current.baseUrl, home.gateway.url);
    assert.equal(api.services.settings.current.completionModel, 'echo-completion');
    await waitFor('the connection to drop the work key', () => api.services.connection.state.hasKey === false || undefined);
    assert.equal(api.services.connection.state.root, home.gateway.url, 'the connection points at the home gateway');
    await api.services.apiKey.set(home.key);
    await waitFor('the connection to use the home key', () => (api.services.connection.state.configured && api.services.connection.secrets()[0] === home.key) || undefined);

    // The home gateway answers a chat through VS Code's language-model API; only its balance moves.
    const [model] = await waitFor('a Model Gateway model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).filter((m) => m.id.includes('echo')));
    const response = await model!.sendRequest([vscode.LanguageModelChatMessage.User('hello home')], {});
    for await (const _ of response.text) void _;
    const homeBalance = (await api.services.connection.require().then((c) => c.balance())).remainingUsd!;
    assert.ok(homeBalance < 10, 'the home gateway charged the chat');

    await vscode.commands.executeCommand('modelGateway.switchProfile', 'Default');
    await waitFor('the work key back in use', () => (api.services.connection.secrets()[0] === work.key && api.services.connection.state.root === work.gateway.url) || undefined);
    assert.equal(api.services.settings.current.completionModel, '', 'Default had no completion model');
    assert.equal((await (await api.services.connection.require()).balance()).remainingUsd, 10, 'the work gateway was not charged');
    assert.equal(api.services.profiles.state.profiles.find((p) => p.name === 'Home')?.baseUrl, home.gateway.url);
  });

  it('removes a profile with its key', async () => {
    await vscode.commands.executeCommand('modelGateway.removeProfile', 'Home');
    assert.deepEqual(api.services.profiles.state.profiles.map((p) => p.name), ['Default']);
    assert.equal(await api.services.context.secrets.get('modelGateway.profile.Home.apiKey'), undefined);
  });
});
