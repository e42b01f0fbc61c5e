/**
 * "Write Pull Request Description…" (the Source Control title bar's menu, the palette): the current branch's commits
 * since it left a branch the user picks, and their diff, go to the chat model, and its title and description open in
 * a new Markdown editor to paste into the pull request (the title is copied with a click). `{ since }` as the
 * argument skips the branch picker. The command returns what it opened, for scripts and the in-editor suite.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { budgetChars, modelInputTokens } from '../chat/inputBudget.ts';
import { usageLine } from '../chat/usageLine.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { chooseRepository, gitApi } from '../commitMessage/git.ts';
import { DIFF_BUDGET_CHARS } from '../commitMessage/prompt.ts';
import { isExcluded } from '../completions/excludeGlobs.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import { repositoryInstructions } from '../instructions/instructionFiles.ts';
import { committedSince } from '../review/changesDiff.ts';
import { pickBaseBranch } from '../review/reviewCommand.ts';
import type { ExtensionServices } from '../services.ts';
import { describePrompt, descriptionFrom } from './describePrompt.ts';

export interface PullRequestDescription {
  readonly title: string;
  readonly body: string;
  readonly document: vscode.TextDocument;
}

export function registerDescribeCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.describePullRequest, (arg?: unknown) => describePullRequest(services, arg)));
}

async function describePullRequest(services: ExtensionServices, arg: unknown): Promise<PullRequestDescription | undefined> {
  const t = vscode.l10n.t;
  const repository = await chooseRepository(arg, t('Describe the branch of which repository?'));
  if (!repository) return undefined;
  const gitPath = (await gitApi())?.git.path ?? 'git';
  const given = (arg as { since?: unknown } | undefined)?.since;
  let since: string | undefined;
  try {
    since = typeof given === 'string' && given.trim() !== '' ? given.trim() : await pickBaseBranch(gitPath, repository, t('The pull request goes into which branch?'));
  } catch (error) {
    void vscode.window.showErrorMessage(t('Git could not list the branches: {0}', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  if (since === undefined) return undefined;
  const model = await chatModelOrPick(services, t('Pick the gateway model that writes descriptions first.'));
  if (model === null) return undefined;
  const root = repository.rootUri.fsPath;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Writing the pull request description with {0}…', model), cancellable: true }, async (_progress, token) => {
    const abort = signalFromToken(token);
    try {
      let changes;
      try {
        changes = await committedSince(gitPath, root, abort.signal, since);
      } catch (error) {
        if (!token.isCancellationRequested) void vscode.window.showErrorMessage(t('Git could not show the changes: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
      if (!changes) {
        void vscode.window.showInformationMessage(t('This branch has no commits since it left {0}: nothing to describe.', since));
        return undefined;
      }
      const client = await services.connection.require();
      const budget = budgetChars(await modelInputTokens(client, model, abort.signal), DIFF_BUDGET_CHARS);
      const secret = (path: string) => isExcluded(path, services.settings.current.completionsExclude);
      const { text: instructions } = await repositoryInstructions(services.settings.current, { roots: [repository.rootUri] });
      const messages = describePrompt({ ...changes, base: since, instructions }, budget, secret);
      const answer = await client.chat({ model, messages }, { signal: abort.signal });
      const { title, body } = descriptionFrom(answer.choices[0]?.message.content ?? '');
      if (title === '') {
        void vscode.window.showWarningMessage(t('{0} returned an empty description.', model));
        return undefined;
      }
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# ${title}\n\n${body}\n` });
      await vscode.window.showTextDocument(document, { preview: false });
      const by = answer.usage ? `${model}, ${usageLine(answer.usage, t)}` : model;
      const copy = t('Copy Title');
      void vscode.window.showInformationMessage(t('Pull request description for {0} into {1} by {2}.', changes.branch, since, by), copy).then((choice) => {
        if (choice === copy) void vscode.env.clipboard.writeText(title);
      });
      return { title, body, document };
    } catch (error) {
      if (!token.isCancellationRequested) await showErrorWithFixes(services, error, t('Pull request description'));
      return undefined;
    } finally {
      abort.dispose();
      services.connection.balanceMayHaveChanged();
    }
  });
}
