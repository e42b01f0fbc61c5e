// A profile pairs a gateway with its key: switching profiles must never send one profile's key to the other's
// gateway, not even for the moment between the new base URL and the new key. The other gateway here records the
// Authorization of every request it gets.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';
import { activate, resetConfiguration, startSuiteGateway, useSuiteGateway, VENDOR, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

const HOME_KEY = 'sk-suite-home-profile-key-0001';

describe('profile switch and keys', () => {
  let api: ModelGatewayApi;
  let work: SuiteGateway;
  let home: Listening;
  const seen: string[] = [];

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    work = await startSuiteGateway();
    home = await listenOnLoopback(createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      const json = (body: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/v1/models') return void json({ object: 'list', data: [{ id: 'home-model', object: 'model' }] });
      if (req.url?.startsWith('/v1/dashboard/billing/subscription')) return void json({ object: 'billing_subscription', hard_limit_usd: 5 });
      if (req.url?.startsWith('/v1/dashboard/billing/usage')) return void json({ object: 'list', total_usage: 0 });
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here","type":"x"}}');
    }));
    await useSuiteGateway(api, work);
    await api.services.profiles.add({ name: 'Home', baseUrl: home.origin, model: 'home-model', completionModel: '' });
    await api.services.context.secrets.store('modelGateway.profile.Home.apiKey', HOME_KEY);
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
    assert.ok(seen.length > 0, 'the home gateway was asked');
    assert.deepEqual([...new Set(seen)], [`Bearer ${HOME_KEY}`], 'the home gateway saw only the home key');
  });
});
