// "Generate Commit Message" in a real Git repository opened by VS Code's Git extension: the staged diff (or the
// working tree's) goes to the gateway's echo model, which says back what it was asked, and that answer lands in
// the repository's message box.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as vscode from 'vscode';
import type { GitRepository } from '../../../src/extension/commitMessage/git.ts';
import { openInGit, type OpenedRepository } from './gitInEditor.ts';
import { suiteGatewayHooks, waitFor } from './helpers.ts';
import { repositoryWithCommit, type TestRepository } from '../../support/gitRepository.ts';

describe('Generate Commit Message', () => {
  suiteGatewayHooks();
  let repo: TestRepository;
  let repository: GitRepository;
  let opened: OpenedRepository | undefined;

  before(async () => {
    repo = repositoryWithCommit('mg-commit-', { path: 'greeting.ts', content: 'export const greeting = "hello";\n' }, 'feat(greeting): first greeting');
    opened = await openInGit(repo.dir);
    repository = opened.repository;
  });

  after(async () => {
    await opened?.close();
    if (repo) rmSync(repo.dir, { recursive: true, force: true });
  });

  /** Runs the command as the Source Control title bar does (with the repository's rootUri) and waits for the box to hold the answer. */
  async function generate(): Promise<string> {
    repository.inputBox.value = '';
    await vscode.commands.executeCommand('modelGateway.generateCommitMessage', { rootUri: repository.rootUri });
    return waitFor('the commit message in the message box', () => repository.inputBox.value || undefined);
  }

  it('describes the staged changes, with the recent subjects, in the message box', async () => {
    repo.write('greeting.ts', 'export const greeting = "hello, staged world";\n');
    repo.git('add', 'greeting.ts');
    // At once, as after `git add` in a terminal: the command asks git, not the Git extension's view, which lags.
    const message = await generate();
    assert.match(message, /^You said: The staged changes:/);
    assert.ok(message.includes('+export const greeting = "hello, staged world";'), message);
    assert.ok(message.includes('- feat(greeting): first greeting'), message);
  });

  it('describes the working tree when nothing is staged', async () => {
    repo.git('commit', '-q', '-m', 'feat(greeting): staged world');
    // The Git extension sees the commit before the next change: without this wait the command did not return in two
    // of five runs (not pinned down where); what this test is about is the working tree's diff.
    await waitFor('the Git extension to see the commit', () => repository.state.indexChanges.length === 0 || undefined);
    repo.write('greeting.ts', 'export const greeting = "hello, unstaged world";\n');
    const message = await generate();
    assert.match(message, /^You said: The changes in the working tree \(nothing is staged\):/);
    assert.ok(message.includes('+export const greeting = "hello, unstaged world";'), message);
    assert.ok(message.includes('- feat(greeting): staged world\n- feat(greeting): first greeting'), message);
  });
});
