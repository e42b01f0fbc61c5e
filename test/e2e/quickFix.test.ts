// As a user with a TypeScript error: the light bulb (Ctrl+.) offers "Fix with Model Gateway", and picking it
// rewrites the line of the error with the gateway's model. The echo model says back what it was asked, and the
// first fenced block of that (the code before the error's line, sent as context) is what replaces the line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { gatewayEditorSession } from './support/gateway.ts';
import { openFile } from './support/files.ts';

describe('as a user with a TypeScript error, the light bulb fixes it with the gateway\'s model', function () {
  this.timeout(180000);
  const workspace = mkdtempSync(join(tmpdir(), 'mg-e2e-fix-'));
  writeFileSync(join(workspace, 'total.ts'), "export const unit = 'ms';\nconst total: number = 'three';\nexport { total };\n");
  const editor = gatewayEditorSession({
    name: 'e2e-quick-fix',
    workspace,
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0 }),
  });

  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('"Fix with Model Gateway" replaces the line of the error', async () => {
    const session = editor();
    const { workbench, browser, gateway } = session;
    const page = browser.page;
    await workbench.runCommand('Model Gateway: Set API Key');
    await workbench.typeInQuickInput(gateway.goodKey);
    await workbench.waitForNotification(/^API key saved/);
    await workbench.clearNotifications();
    await openFile(session, 'total.ts');
    // TypeScript's own diagnostic (ts 2322) under 'three', once its server has read the file.
    const squiggle = page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first();
    await squiggle.waitFor({ state: 'attached', timeout: 90000 });
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('ArrowDown');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Model Gateway' }).first();
    await poll('"Fix with Model Gateway" among the quick fixes', async () => {
      if (await fix.isVisible()) return true;
      await page.keyboard.press('Escape');
      await page.keyboard.press('ControlOrMeta+.');
      await fix.waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
      return (await fix.isVisible()) || undefined;
    }, 60000);
    await saveScreenshot(page, 'e2e-quick-fix', 'light-bulb');
    await fix.click();
    const lines = page.locator('.editor-group-container.active .monaco-editor .view-line');
    const text = await poll('the line of the error rewritten', async () => {
      const shown = await lines.evaluateAll((els) => els.map((el) => ({ top: parseFloat((el as HTMLElement).style.top) || 0, text: (el as HTMLElement).innerText })));
      const joined = shown.sort((a, b) => a.top - b.top).map((l) => l.text.replace(/\u00a0/g, ' ')).join('\n');
      return joined.includes("'three'") ? undefined : joined;
    }, 30000);
    assert.equal(text.trimEnd(), "export const unit = 'ms';\nexport const unit = 'ms';\nexport { total };");
    // The notification says which model and what it cost, as the gateway reported it, and offers Undo.
    const said = await workbench.waitForNotification(/^Edited with echo, \d+ \+ \d+ tokens · \$\d/);
    await saveScreenshot(page, 'e2e-quick-fix', 'fixed');
    assert.deepEqual(said.buttons, ['Undo']);
  });
});
