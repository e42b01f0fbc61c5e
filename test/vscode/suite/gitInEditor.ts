// A test repository opened in VS Code's Git extension. The test editors start with git.enabled off (quiet): it is
// turned on for the repository's time, and put back as it was when it is closed.
import * as vscode from 'vscode';
import { gitApi, type GitRepository } from '../../../src/extension/commitMessage/git.ts';
import { waitFor } from './helpers.ts';

export interface OpenedRepository {
  readonly repository: GitRepository;
  /** Closes it in the Git extension and puts git.enabled back. */
  close(): Promise<void>;
}

export async function openInGit(dir: string): Promise<OpenedRepository> {
  const enabledBefore = vscode.workspace.getConfiguration('git').inspect<boolean>('enabled')?.globalValue;
  const restore = () => vscode.workspace.getConfiguration('git').update('enabled', enabledBefore, vscode.ConfigurationTarget.Global);
  try {
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    const git = await waitFor('the Git extension to be enabled', async () => (await gitApi()) ?? undefined);
    await vscode.commands.executeCommand('git.openRepository', dir);
    const repository = await waitFor('the Git extension to open the repository', () => git.getRepository(vscode.Uri.file(dir)) ?? undefined);
    return {
      repository,
      async close() {
        await vscode.commands.executeCommand('git.close', repository).then(undefined, () => undefined);
        await restore();
      },
    };
  } catch (error) {
    await restore();
    throw error;
  }
}
