// As a user with staged changes in a Git repository: the sparkle in the Source Control title bar writes the
// commit message with the gateway's model. The echo model says back what it was asked, so the message box
// shows that the staged diff and the repository's last subject reached the gateway.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { repositoryWithCommit } from '../support/gitRepository.ts';
import { gatewayEditorSession } from './support/gateway.ts';

/** A repository with one commit and one staged change, made before the editor opens it. */
function stagedRepository(): string {
  const repository = repositoryWithCommit('mg-e2e-commit-', { path: 'notes.md', content: '# Notes\n' }, 'docs: start the notes');
  repository.write('notes.md', '# Notes\n\nThe gateway writes commit messages.\n');
  repository.git('add', 'notes.md');
  return repository.dir;
}

describe('as a user with staged changes, the Source Control sparkle writes the commit message', function () {
  this.timeout(180000);
  const repository = stagedRepository();
  const editor = gatewayEditorSession({
    name: 'e2e-commit-message',
    workspace: repository,
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0, 'git.enabled': true }),
  });

  after(() => rmSync(repository, { recursive: true, force: true }));

  it('the message box holds the model\'s answer about the staged diff', async () => {
    const { workbench, browser, gateway } = editor();
    const page = browser.page;
    await workbench.runCommand('Model Gateway: Set API Key');
    await workbench.typeInQuickInput(gateway.goodKey);
    await workbench.waitForNotification(/^API key saved/);
    await workbench.clearNotifications();
    await page.keyboard.press('Control+Shift+G');
    const sparkle = page.locator('.part.sidebar .title-actions, .part.sidebar .actions-container').getByRole('button', { name: 'Generate Commit Message' }).first();
    await sparkle.waitFor({ state: 'visible', timeout: 60000 });
    await sparkle.click();
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
    await saveScreenshot(page, 'e2e-commit-message', 'message-box');
    assert.ok(end.includes('+The gateway writes commit messages. Recent commit messages in this repository, newest first: - docs: start the notes'), end);
    await scrolled('Control+Home', /^You said: The staged changes: diff --git a\/notes\.md b\/notes\.md/);
  });
});
