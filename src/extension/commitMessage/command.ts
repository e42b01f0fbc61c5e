/**
 * "Generate Commit Message": the sparkle in the Source Control title bar. The staged changes (or the
 * working tree's when nothing is staged) go to the configured gateway model with the repository's recent
 * subjects and what is already typed in the message box; the answer is written into that box. A slow model
 * can be cancelled from its notification; what the author types meanwhile is not overwritten without asking.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { signalFromToken } from '../chat/abort.ts';
import { commitMessageFrom } from './answer.ts';
import { usageLine } from '../chat/usageLine.ts';
import { commitMessagePrompt, DIFF_BUDGET_CHARS } from './prompt.ts';
import { budgetChars, modelInputTokens } from '../chat/inputBudget.ts';
import { isExcluded } from '../completions/excludeGlobs.ts';
import { repositoryInstructions } from '../instructions/instructionFiles.ts';
import { chooseRepository, recentSubjects, type GitRepository } from './git.ts';

export function registerCommitMessageCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.generateCommitMessage, (arg?: unknown) => generateCommitMessage(services, arg)));
}

export async function generateCommitMessage(services: ExtensionServices, arg?: unknown): Promise<void> {
  const t = vscode.l10n.t;
  const repository = await chooseRepository(arg, vscode.l10n.t('Generate a commit message for which repository?'));
  if (!repository) return;
  const model = await chatModelOrPick(services, t('Pick the gateway model that writes commit messages first.'));
  if (model === null) return;
  // The notification from the first moment: reading the changes can take a while in a large repository.
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Writing a commit message with {0}…', model), cancellable: true }, async (_progress, token) => {
    const changes = await changesOf(repository);
    if (token.isCancellationRequested || !changes) return;
    const draft = repository.inputBox.value;
    // The repository's own instructions (its root's AGENTS.md often says how its commits are written).
    const { text: instructions, files } = await repositoryInstructions(services.settings.current, { roots: [repository.rootUri] });
    if (files.length > 0) services.log.info(`Commit message: with the instructions of ${files.map((f) => f.label).join(', ')}.`);
    const abort = signalFromToken(token);
    try {
      const client = await services.connection.require();
      // A model with a small context gets a smaller diff (files named instead of shown) rather than a refusal.
      const budget = budgetChars(await modelInputTokens(client, model, abort.signal), DIFF_BUDGET_CHARS);
      // The diffs of files where secrets live (the list inline completion never sends, and the user's) are not sent: named only.
      const secret = (path: string) => isExcluded(path, services.settings.current.completionsExclude);
      const messages = commitMessagePrompt({ ...changes, recentSubjects: await recentSubjects(repository), draft, instructions }, budget, secret);
      const answer = await client.chat({ model, messages }, { signal: abort.signal });
      const message = commitMessageFrom(answer.choices[0]?.message.content ?? '');
      if (message === '') {
        void vscode.window.showWarningMessage(t('{0} returned an empty commit message.', model));
        return;
      }
      if (await writeMessage(repository, draft, message)) {
        // Where the message came from and what it cost, for a moment in the status bar (the box holds the message itself).
        const by = answer.usage ? `${model}, ${usageLine(answer.usage, t)}` : model;
        vscode.window.setStatusBarMessage(t('Commit message by {0}', by), 8000);
      }
    } catch (error) {
      if (!token.isCancellationRequested) await showErrorWithFixes(services, error, t('Commit message'));
    } finally {
      abort.dispose();
      services.connection.balanceMayHaveChanged();
    }
  });
}

/**
 * The staged diff, else the working tree's, asked of git itself (the Git extension's view of what is staged lags a
 * `git add` made in a terminal); null, with a word to the user, when there is nothing to describe or git fails.
 */
async function changesOf(repository: GitRepository): Promise<{ diff: string; staged: boolean } | null> {
  const t = vscode.l10n.t;
  try {
    const staged = await repository.diff(true);
    if (staged.trim() !== '') return { diff: staged, staged: true };
    const working = await repository.diff(false);
    if (working.trim() !== '') return { diff: working, staged: false };
    void vscode.window.showInformationMessage(t('There are no changes to describe: change a file, or stage one.'));
  } catch (error) {
    void vscode.window.showErrorMessage(t('Git could not show the changes: {0}', error instanceof Error ? error.message : String(error)));
  }
  return null;
}

/** Into the message box; when the author typed there while the model wrote, only if they say so. True when written. */
async function writeMessage(repository: GitRepository, draft: string, message: string): Promise<boolean> {
  const t = vscode.l10n.t;
  if (repository.inputBox.value !== draft) {
    const replace = t('Replace');
    if ((await vscode.window.showInformationMessage(t('The message box changed while the commit message was written. Replace it?'), replace)) !== replace) return false;
  }
  repository.inputBox.value = message;
  return true;
}
