// As a user, in a real VS Code (code-server): with a completion model set, typing in a file shows ghost
// text from the local gateway's offline echo-completion model and Tab accepts it; in an excluded file
// (.env) nothing is sent. What was sent is read from the "Model Gateway" log (one line per request).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../editor/artifacts.ts';
import { editorSession } from '../editor/session.ts';
import type { EditorSession } from '../editor/session.ts';
import { poll } from '../support/poll.ts';

const COMPLETIONS = 'modelGateway.completions';
/** Inline ghost text as the editor draws it (same-line part and the lines below it). */
const GHOST = '.editor-group-container.active .monaco-editor .ghost-text-decoration, .editor-group-container.active .monaco-editor .ghost-text';

/** The FIM requests the extension logged so far ("POST /v1/completions ..." lines). */
function completionRequests(session: EditorSession): number {
  return session.server
    .findLogs('Model Gateway')
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
    .split('\n')
    .filter((line) => line.includes('POST /v1/completions')).length;
}

/** Opens a workspace file by clicking it in the Explorer, and waits for its tab. */
async function openFile(session: EditorSession, name: string): Promise<void> {
  const page = session.browser.page;
  const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: name }) });
  await row.first().click();
  let title = '';
  await poll(`the tab of ${name}`, async () => {
    title = await session.workbench.activeTabTitle();
    // The tab's label shows the name without its extension ("greet" for greet.ts), the description apart.
    return title === name || (title !== '' && name.startsWith(`${title}.`)) || undefined;
  }, 10000).catch((error: Error) => {
    throw new Error(`${error.message} (the active tab says "${title}")`);
  });
  // Into the text: a click on the editor's lines (VS Code's input element changes between versions).
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+End');
}

/** The text of the editor's line holding the cursor's line (as rendered). */
async function currentLineText(page: Page): Promise<string> {
  return ((await page.locator('.editor-group-container.active .monaco-editor .view-line').last().textContent()) ?? '').replace(/\u00a0/g, ' ');
}

describe('as a user: inline completions from the local gateway', function () {
  this.timeout(120000);
  const workspace = mkdtempSync(join(tmpdir(), 'mg-completions-'));
  writeFileSync(join(workspace, 'greet.ts'), '');
  writeFileSync(join(workspace, '.env'), '');
  const editor = editorSession({
    name: 'e2e-completions',
    workspace,
    // Every language on, prose too: only the exclusion keeps .env out.
    settings: { 'modelGateway.completionModel': 'echo-completion', 'modelGateway.completions.enable': { '*': true }, 'modelGateway.balanceRefreshSeconds': 0 },
  });

  it('starts the local gateway; the completions item is on', async () => {
    const { workbench } = editor();
    await workbench.runCommand('Model Gateway: Start Local Gateway');
    await workbench.waitForNotification(/^Local gateway running at/);
    await workbench.waitForStatusBar(COMPLETIONS, /Completions/);
  });

  it('typing in a TypeScript file shows the echo model\'s ghost text, and Tab accepts it', async () => {
    const session = editor();
    const page = session.browser.page;
    await openFile(session, 'greet.ts');
    await page.keyboard.type('let greeting');
    const ghost = await poll('ghost text in the editor', async () => {
      const text = (await page.locator(GHOST).allTextContents()).join('').replace(/\u00a0/g, ' ');
      return text.trim() !== '' ? text : undefined;
    }, 30000);
    assert.equal(ghost, 'You said: let greeting');
    await saveScreenshot(page, 'e2e-completions', 'ghost-text');
    await page.keyboard.press('Tab');
    const line = await poll('the accepted text in the line', async () => {
      const text = await currentLineText(page);
      return text.includes('You said') ? text : undefined;
    }, 10000);
    assert.equal(line, 'let greetingYou said: let greeting');
    await poll('the request in the log', () => completionRequests(session) || undefined, 10000);
  });

  it('in .env nothing is sent: the item says the file is excluded, and the log shows no request from it', async () => {
    const session = editor();
    const page = session.browser.page;
    await openFile(session, '.env');
    const excluded = await poll('the completions item to say the file is excluded', async () => {
      const { ariaLabel } = await session.workbench.statusBarText(COMPLETIONS);
      return /excluded/.test(ariaLabel) ? ariaLabel : undefined;
    }, 10000);
    assert.match(excluded, /nothing in it is ever sent/);
    // Every request from greet.ts is logged by now (the ghost text came back from it before).
    const before = await poll('the greet.ts requests in the log', () => completionRequests(session) || undefined, 10000);
    await page.keyboard.type('API_KEY=sk-very-secret');
    // Then one keystroke in greet.ts, which is sent: once its answer shows, every earlier request is in the log too.
    await openFile(session, 'greet.ts');
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await poll('ghost text in greet.ts again', async () => {
      const text = (await page.locator(GHOST).allTextContents()).join('');
      return text.includes('greeting!') || undefined;
    }, 30000);
    const after = await poll('the new greet.ts request in the log', () => (completionRequests(session) > before ? completionRequests(session) : undefined), 10000);
    assert.equal(after, before + 1, 'one request, for the one keystroke in greet.ts; none from .env');
  });
});
