// As a user writing code in a Git repository, with one editor for all three: the light bulb's "Fix with Model Gateway"
// rewrites the line of a real TypeScript error, the sparkle in the Source Control title bar writes the commit
// message and the checklist beside it reviews the changes, @gateway /codebase answers from the repository's files (indexed with the offline echo-embedding), and
// @gateway /compare asks two models at once, and a command failing in the terminal is explained from its output. The echo model says back what it was asked: the first fenced block of that (the code before the
// error's line, sent as context) replaces the line, and the message box shows the staged diff and the subjects.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { repositoryWithCommit } from '../support/gitRepository.ts';
import { gatewayEditorSession } from './support/gateway.ts';
import { openFile } from './support/files.ts';

/** Two commits (notes.md, then total.ts with its type error) and a staged change to notes.md, made before the editor opens it. */
function repository(): string {
  const repo = repositoryWithCommit('mg-e2e-code-', { path: 'notes.md', content: '# Notes\n' }, 'docs: start the notes');
  repo.write('total.ts', "export const unit = 'ms';\nconst total: number = 'three';\nexport { total };\n");
  repo.git('add', 'total.ts');
  repo.git('commit', '-q', '-m', 'feat: add the total');
  repo.write('notes.md', '# Notes\n\nThe gateway writes commit messages.\n');
  repo.git('add', 'notes.md');
  return repo.dir;
}

/** Opens the Source Control view and clicks the button of its title bar named `name`. */
async function clickSourceControlTitleButton(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+Shift+G');
  const button = page.locator('.part.sidebar .title-actions, .part.sidebar .actions-container').getByRole('button', { name }).first();
  await button.waitFor({ state: 'visible', timeout: 60000 });
  await button.click();
}

describe('as a user writing code, the gateway\'s model fixes an error and writes the commit message', function () {
  this.timeout(180000);
  const workspace = repository();
  const editor = gatewayEditorSession({
    name: 'e2e-writing-code',
    workspace,
    settings: (gateway) => ({
      'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.embeddingModel': 'echo-embedding', 'modelGateway.balanceRefreshSeconds': 0, 'git.enabled': true,
      // A chat model and a completion model: the gateway refuses the second at the chat endpoint, so one answers and one fails.
      'modelGateway.compareModels': ['echo', 'echo-completion'],
    }),
  });

  before(async () => {
    const { workbench, gateway } = editor();
    await workbench.runCommand('Model Gateway: Set API Key');
    await workbench.typeInQuickInput(gateway.goodKey);
    await workbench.waitForNotification(/^API key saved/);
    await workbench.clearNotifications();
  });

  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('"Fix with Model Gateway" in the light bulb replaces the line of the error', async () => {
    const session = editor();
    const { workbench, browser } = session;
    const page = browser.page;
    await openFile(session, 'total.ts');
    // TypeScript's own diagnostic (ts 2322) under 'three', once its server has read the file.
    const squiggle = page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first();
    await squiggle.waitFor({ state: 'attached', timeout: 90000 });
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('ArrowDown');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Model Gateway' }).first();
    // Ctrl+. again until the menu lists it (TypeScript may still be computing its own fixes): checked once a second.
    await poll('"Fix with Model Gateway" among the quick fixes', async () => {
      if (await fix.isVisible()) return true;
      await page.keyboard.press('Escape');
      await page.keyboard.press('ControlOrMeta+.');
      return undefined;
    }, 60000, 1000);
    await saveScreenshot(page, 'e2e-writing-code', 'light-bulb');
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
    await saveScreenshot(page, 'e2e-writing-code', 'fixed');
    assert.deepEqual(said.buttons, ['Undo']);
  });

  it('the Source Control sparkle puts the model\'s answer about the staged diff in the message box', async () => {
    const { workbench, browser } = editor();
    const page = browser.page;
    await workbench.clearNotifications();
    await clickSourceControlTitleButton(page, 'Generate Commit Message');
    // The box is an editor that wraps lines and draws only what is in view, its line elements placed by their
    // top, not in document order: read them in the order they show, whitespace folded; the end, then the start.
    const box = page.locator('.scm-editor .view-lines').first();
    const shown = async () => {
      const lines = await box.locator('.view-line').evaluateAll((els) => els.map((el) => ({ top: parseFloat((el as HTMLElement).style.top) || 0, text: (el as HTMLElement).innerText })));
      return lines.sort((a, b) => a.top - b.top).map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim();
    };
    // Scrolled by keys: a click in the box, then the key, again until the box has the focus and shows what is wanted.
    const scrolled = (key: string, wanted: RegExp) =>
      poll(`the message box after ${key} to show ${String(wanted)}`, async () => {
        const text = await shown();
        if (wanted.test(text)) return text;
        await box.click();
        await page.keyboard.press(key);
        return undefined;
      }, 20000);
    await poll('the commit message in the Source Control message box', async () => /You said:|Write the commit message/.test(await shown()) || undefined, 60000);
    const end = await scrolled('Control+End', /Write the commit message for these changes\.$/);
    await saveScreenshot(page, 'e2e-writing-code', 'message-box');
    assert.ok(end.includes('+The gateway writes commit messages. Recent commit messages in this repository, newest first: - feat: add the total - docs: start the notes'), end);
    await scrolled('Control+Home', /^You said: The staged changes: diff --git a\/notes\.md b\/notes\.md/);
  });

  it('the checklist in the Source Control title bar reviews the changes and says what the model found', async () => {
    const { workbench, browser } = editor();
    await workbench.clearNotifications();
    await clickSourceControlTitleButton(browser.page, 'Review Changes');
    // The echo model says back what it was asked, which holds no finding: the review ran end to end and found none.
    const note = await workbench.waitForNotification(/found nothing to report|found \d+ problem/);
    assert.match(note.message, /^echo found nothing to report in [12] changed file\(s\)\. \(\d+ \+ \d+ tokens · \$0\.\d+\)$/);
  });

  it('@gateway /codebase indexes the repository and answers with its code, the files listed as references', async () => {
    const { workbench, browser } = editor();
    const page = browser.page;
    await workbench.sendChat('@gateway /codebase where is the total exported?');
    // Echo says back the question and the excerpts it came with, each headed by its path and lines.
    const text = await workbench.waitForChatResponse(/You said: where is the total exported\?/, 90000);
    // Under the answer, after its usage line: what the index did.
    assert.match(text, /tokens · \$[\d.]+ Indexed 2 changed files with echo-embedding \([\d,]+ tokens, \$[\d.]+\); the index holds 2 files\.$/);
    // total.ts is the editor's file, attached whole by VS Code: its excerpt is not sent again; notes.md's is.
    assert.match(text, /total\.ts: export const unit/);
    assert.doesNotMatch(text, /total\.ts:1-3:/);
    assert.match(text, /notes\.md:1-3: # Notes The gateway writes commit messages\./);
    // VS Code lists the excerpts' files with the answer, in the steps it folds ("Used 2 references", "Completed 7 steps").
    const response = page.locator('.interactive-session .interactive-response').last();
    const listed = response.locator('.monaco-icon-label', { hasText: 'notes.md' });
    const steps = response.getByText(/^Completed \d+ steps?/).first();
    const used = response.getByText(/^Used \d+ references?$/).first();
    // Both are toggles, each clicked once and only when closed: the steps opened (when folded), then the list in them.
    await poll('the folded steps or the references toggle under the answer', async () => (await steps.isVisible()) || (await used.isVisible()) || undefined, 10000);
    if (!(await used.isVisible())) await steps.click();
    await used.waitFor({ state: 'visible', timeout: 10000 });
    if (!(await listed.first().isVisible())) await used.click();
    await listed.first().waitFor({ state: 'visible', timeout: 10000 });
    await saveScreenshot(page, 'e2e-writing-code', 'codebase-answer');
  });

  it('@gateway /compare shows each model\'s answer or failure, a table of their times and costs, and a button per answering model', async () => {
    const { workbench, browser } = editor();
    await workbench.sendChat('@gateway /compare which total is exported?');
    const text = await workbench.waitForChatResponse(/Model First token In all Tokens \(in \+ out\) Cost/, 90000);
    assert.match(text, /echo You said: which total is exported\?/);
    assert.match(text, /first token after \d+ m?s · [\d.]+ m?s in all · [\d,]+ \+ [\d,]+ tokens · \$[\d.]+/);
    assert.match(text, /echo-completion echo-completion failed: /);
    assert.match(text, /echo \d+ m?s [\d.]+ m?s [\d,]+ \+ [\d,]+ \$[\d.]+ echo-completion failed/);
    assert.deepEqual((await workbench.lastChatResponseButtons()).filter((b) => b.startsWith('Chat with')), ['Chat with echo']);
    await saveScreenshot(browser.page, 'e2e-writing-code', 'compare-answer');
    // The bundled gateway serves one chat model: the picker says why it cannot offer a comparison.
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Pick Models to Compare');
    await workbench.waitForNotification(/^The gateway lists 1 chat model\(s\) for this key: \/compare needs two\./);
    await workbench.clearNotifications();
  });

  it('a command failing in the terminal puts "Explain failure" in the status bar, and a click has @gateway /terminal answer about it', async () => {
    const { workbench, browser } = editor();
    const page = browser.page;
    await workbench.runCommand('Terminal: Create New Terminal');
    await page.locator('.terminal-wrapper.active .xterm, .terminal .xterm').first().waitFor({ state: 'visible', timeout: 60000 });
    // Typed as a user types it; bash reads it once its prompt (with VS Code's shell integration) is up.
    await page.keyboard.type('ls /mg-e2e-missing-dir');
    await page.keyboard.press('Enter');
    await workbench.waitForStatusBar('modelGateway.terminalFailure', /Explain failure/, 60000);
    await saveScreenshot(page, 'e2e-writing-code', 'terminal-failure-offered');
    await workbench.statusBarItem('modelGateway.terminalFailure').first().click();
    // Echo says back what it was sent: the command, its exit code and its output, read from the terminal.
    const text = await workbench.waitForChatResponse(/You said: Command: ls \/mg-e2e-missing-dir/, 90000);
    assert.match(text, /Exit code: 2/);
    assert.match(text, /ls: cannot access '\/mg-e2e-missing-dir': No such file or directory/);
    assert.match(text, /About "ls \/mg-e2e-missing-dir" in the terminal ".+" \(exit code 2\)/);
    assert.equal(await workbench.statusBarItem('modelGateway.terminalFailure').first().isVisible(), false, 'the offer is taken');
    await saveScreenshot(page, 'e2e-writing-code', 'terminal-failure-explained');
  });

  it('#terminalLastCommand typed in a @gateway question attaches the terminal\'s last command and its output', async () => {
    const { workbench, browser } = editor();
    await workbench.sendChat('@gateway what did #terminalLastCommand print?');
    const text = await workbench.waitForChatResponse(/You said: what did #terminalLastCommand print\?/, 90000);
    assert.match(text, /#terminalLastCommand:/);
    assert.match(text, /ls \/mg-e2e-missing-dir/);
    assert.match(text, /No such file or directory/);
    await saveScreenshot(browser.page, 'e2e-writing-code', 'terminal-tool-reference');
  });
});
