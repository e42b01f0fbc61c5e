// Write Pull Request Description in a real Git repository opened by VS Code's Git extension: the branch's commits
// since main and their diff go to the model, and its title and description open in a new Markdown editor. A
// stand-in gateway answers and records what it was sent.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import type { PullRequestDescription } from '../../../src/extension/pullRequest/describeCommand.ts';
import { openInGit, type OpenedRepository } from './gitInEditor.ts';
import { activate, resetConfiguration } from './helpers.ts';
import { useRecordingGateway, type RecordingGateway } from './recordingGateway.ts';
import { commitFiles, repositoryWithCommit, type TestRepository } from '../../support/gitRepository.ts';

const ANSWER = '```markdown\n# Round the cart total\n\nTotals were not rounded to cents.\n\n## Changes\n- cart.ts rounds the total\n\n## Testing\n- cart.test.ts\n```';

describe('Write Pull Request Description', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  let repo: TestRepository;
  let opened: OpenedRepository | undefined;

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'writer', ANSWER);
    repo = repositoryWithCommit('mg-pr-editor-', { path: 'cart.ts', content: 'export const total = 0;\n' }, 'first');
    repo.git('checkout', '-q', '-b', 'feature/rounding');
    commitFiles(repo, { 'cart.ts': 'export const total = Math.round(0);\n' }, 'Round the total');
    commitFiles(repo, { '.env': 'PAYMENTS_KEY=sk-live-pr-secret\n', 'cart.test.ts': 'test("rounds", () => {});\n' }, 'Test the rounding');
    opened = await openInGit(repo.dir);
  });

  after(async () => {
    // The description is an untitled, unsaved document: closed without saving, or closing would ask.
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isUntitled)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await opened?.close();
    if (repo) rmSync(repo.dir, { recursive: true, force: true });
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  it("sends the branch's commits and diff since main, and opens the title and description in a Markdown editor", async () => {
    const done = await vscode.commands.executeCommand<PullRequestDescription | undefined>('modelGateway.describePullRequest', { rootUri: opened!.repository.rootUri, since: 'main' });
    assert.ok(done, 'the command returns what it opened');
    const user = String(gateway.chats.at(-1)!.messages[1]!.content);
    assert.match(user, /^The branch feature\/rounding into main\.\n\nIts commits, oldest first:\n- Round the total\n- Test the rounding\n/);
    assert.match(user, /\+export const total = Math\.round\(0\);/);
    assert.ok(!user.includes('sk-live-pr-secret') && user.includes('.env'), 'the .env file is named, never sent');
    assert.equal(done.title, 'Round the cart total');
    assert.equal(done.document.languageId, 'markdown');
    assert.equal(done.document.isUntitled, true);
    assert.equal(done.document.getText(), '# Round the cart total\n\nTotals were not rounded to cents.\n\n## Changes\n- cart.ts rounds the total\n\n## Testing\n- cart.test.ts\n');
    assert.equal(vscode.window.activeTextEditor?.document, done.document, 'shown');
  });

  it('says there is nothing to describe on a branch without commits of its own, and asks nothing', async () => {
    const asked = gateway.chats.length;
    const done = await vscode.commands.executeCommand<PullRequestDescription | undefined>('modelGateway.describePullRequest', { rootUri: opened!.repository.rootUri, since: 'feature/rounding' });
    assert.equal(done, undefined);
    assert.equal(gateway.chats.length, asked);
  });
});
