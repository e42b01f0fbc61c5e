// Activation, checked at run time in the extension host: the API, every command registered, the
// language-model provider answering vscode.lm, and the @gateway participant answering in the Chat view.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { COMMANDS } from '../../../src/extension/ids.ts';
import { activate, EXTENSION_ID, resetConfiguration, startSuiteGateway, useSuiteGateway, VENDOR, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('activation', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    suite = await startSuiteGateway();
  });

  after(async () => {
    await resetConfiguration(api);
    await suite?.stop();
  });

  it('activates and returns its API, with nothing configured yet', async () => {
    const { extension } = await activate();
    assert.equal(extension.id, EXTENSION_ID);
    assert.equal(extension.isActive, true);
    assert.deepEqual([...api.services.connection.state.missing], ['baseUrl', 'apiKey']);
    assert.equal(api.localGateway.running, undefined);
  });

  it('registers every command it contributes', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = Object.values(COMMANDS).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('registers the language-model provider: vscode.lm lists the gateway\'s models under its vendor', async () => {
    assert.deepEqual(await vscode.lm.selectChatModels({ vendor: VENDOR }), [], 'no models while nothing is configured');
    await useSuiteGateway(api, suite);
    // The provider re-reads /v1/models after a configuration change; wait for the new list.
    const models = await waitFor('the gateway models in vscode.lm', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: VENDOR });
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(models.map((m) => [m.vendor, m.id]), [[VENDOR, 'echo']], 'exactly the models the gateway serves this key');
  });

  it('registers the @gateway participant: a message to it in the Chat view reaches the gateway, which charges it', async () => {
    assert.ok(api.chatParticipant.iconPath instanceof vscode.Uri, 'the participant has its icon');
    const client = await api.services.connection.require();
    const before = await client.balance();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway hello from the suite through the Chat view', isPartialQuery: false, mode: 'ask' });
    const after = await waitFor('the chat request to be charged', async () => {
      const now = await client.balance();
      return (now.usedUsd ?? 0) > (before.usedUsd ?? 0) ? now : undefined;
    }, 45000);
    // What the chat used is what left the balance (to the micro-dollar: the billing endpoints' floats rounded).
    const micro = (usd: number | null) => Math.round((usd ?? NaN) * 1e6);
    assert.equal(micro(after.remainingUsd) - micro(before.remainingUsd), micro(before.usedUsd) - micro(after.usedUsd));
  });
});
