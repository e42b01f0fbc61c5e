// "Generate Commit Message" in a real Git repository opened by VS Code's Git extension: the staged diff (or the
// working tree's) goes to the gateway's echo model, which says back what it was asked, and that answer lands in
// the repository's message box.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import type { GitRepository } from '../../../src/extension/commitMessage/git.ts';
import { gitApi } from '../../../src/extension/commitMessage/git.ts';
import { activate, resetConfiguration, startSuiteGateway, useSuiteGateway, waitFor } from './helpers.ts';
import type { SuiteGateway } from './helpers.ts';

describe('Generate Commit Message', () => {
  let api: ModelGatewayApi;
  let suite: SuiteGateway;
  let dir: string;
  let repository: GitRepository;
  let gitEnabledBefore: boolean | undefined;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });

  before(async () => {
    ({ api } = await activate());
    suite = await startSuiteGateway();
    await useSuiteGateway(api, suite);
    dir = mkdtempSync(join(tmpdir(), 'mg-commit-'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'suite@example.com');
    git('config', 'user.name', 'Suite');
    writeFileSync(join(dir, 'greeting.ts'), 'export const greeting = "hello";\n');
    git('add', '.');
    git('commit', '-q', '-m', 'feat(greeting): first greeting');
    // The test editors start with git.enabled off (quiet); this suite turns it on for itself, and back after.
    gitEnabledBefore = vscode.workspace.getConfiguration('git').inspect<boolean>('enabled')?.globalValue;
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    const gitExtension = await waitFor('the Git extension to be enabled', async () => (await gitApi()) ?? undefined);
    await vscode.commands.executeCommand('git.openRepository', dir);
    repository = await waitFor('the Git extension to open the repository', () => gitExtension.getRepository(vscode.Uri.file(dir)) ?? undefined);
  });

  after(async () => {
    if (repository) await vscode.commands.executeCommand('git.close', repository).then(undefined, () => undefined);
    await vscode.workspace.getConfiguration('git').update('enabled', gitEnabledBefore, vscode.ConfigurationTarget.Global);
    await resetConfiguration(api);
    await suite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the command as the Source Control title bar does (with the repository's rootUri) and waits for the box to hold the answer. */
  async function generate(): Promise<string> {
    repository.inputBox.value = '';
    await vscode.commands.executeCommand('modelGateway.generateCommitMessage', { rootUri: repository.rootUri });
    return waitFor('the commit message in the message box', () => repository.inputBox.value || undefined);
  }

  it('describes the staged changes, with the recent subjects, in the message box', async () => {
    writeFileSync(join(dir, 'greeting.ts'), 'export const greeting = "hello, staged world";\n');
    git('add', 'greeting.ts');
    await vscode.commands.executeCommand('git.refresh', repository.rootUri).then(undefined, () => undefined);
    await waitFor('the staged change to be seen', () => repository.state.indexChanges.length > 0 || undefined);
    const message = await generate();
    assert.match(message, /^You said: The staged changes:/);
    assert.ok(message.includes('+export const greeting = "hello, staged world";'), message);
    assert.ok(message.includes('- feat(greeting): first greeting'), message);
  });

  it('describes the working tree when nothing is staged', async () => {
    git('commit', '-q', '-m', 'feat(greeting): staged world');
    writeFileSync(join(dir, 'greeting.ts'), 'export const greeting = "hello, unstaged world";\n');
    await vscode.commands.executeCommand('git.refresh', repository.rootUri).then(undefined, () => undefined);
    await waitFor('the working-tree change to be seen', () => (repository.state.indexChanges.length === 0 && repository.state.workingTreeChanges.length > 0) || undefined);
    const message = await generate();
    assert.match(message, /^You said: The changes in the working tree \(nothing is staged\):/);
    assert.ok(message.includes('+export const greeting = "hello, unstaged world";'), message);
    assert.ok(message.includes('- feat(greeting): staged world\n- feat(greeting): first greeting'), message);
  });
});
