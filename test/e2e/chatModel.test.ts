// @gateway asks the model the user picked under the chat input (a gateway model), not only the one in the
// modelGateway.model setting: before, picking another gateway model there changed nothing for @gateway. The
// gateway's own request log says which model was asked.
import assert from 'node:assert/strict';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { chatWithGatewayModel, gatewayCli, gatewayEditorSession } from './support/gateway.ts';

/** The model of the gateway's newest logged chat request (its CLI's `logs --json`: one JSON row a line, oldest first). */
function lastChatModel(dataDir: string): string | undefined {
  const rows = gatewayCli(dataDir, ['logs', '--limit', '20', '--json']).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { path: string; model: string | null });
  return rows.filter((row) => row.path === '/v1/chat/completions').at(-1)?.model ?? undefined;
}

describe('as a user, @gateway answers with the gateway model picked under the chat input', function () {
  this.timeout(180000);
  const editor = gatewayEditorSession({
    name: 'e2e-chat-model',
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0 }),
    // A second chat model, served free by the gateway's offline echo channel type.
    prepare: (gateway) => {
      gatewayCli(gateway.dataDir, ['channel', 'add', '--name', 'parrot', '--type', 'echo', '--models', 'parrot']);
      gatewayCli(gateway.dataDir, ['model', 'price', 'parrot', '--free']);
    },
  });

  it('the model picked in the chat model picker answers @gateway, over the setting', async () => {
    const { workbench, browser, gateway } = editor();
    await chatWithGatewayModel(editor(), 'parrot');
    await workbench.sendChat('@gateway Which model is this?');
    await workbench.waitForChatResponse(/You said: Which model is this\?/);
    const model = await poll('the request in the gateway log', async () => lastChatModel(gateway.dataDir), 20000);
    assert.equal(model, 'parrot', 'the gateway was asked for the picked model, not the setting\'s echo');
    await saveScreenshot(browser.page, 'e2e-chat-model', 'gateway-answers-with-picked-model');
  });
});
