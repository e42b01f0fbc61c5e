/**
 * "Review Changes" (Source Control title bar, command palette) and "Clear Review Findings": the uncommitted
 * changes of a repository reviewed by the chat model, the findings in the Problems panel, a notification that says
 * how many and what it cost. `@gateway /review` (reviewTurn.ts) is the same review, answered in the chat.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { usageLine } from '../chat/usageLine.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { chooseRepository, gitApi, type GitRepository } from '../commitMessage/git.ts';
import { branchNames } from './changesDiff.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { Translate } from '../translate.ts';
import { GitDiffError, NothingReviewableError, reviewChanges, type Review } from './review.ts';

export function registerReviewCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.reviewChanges, (arg?: unknown) => reviewFromCommand(services, arg)),
    // `since` given (a script, a key binding's args) skips the branch picker.
    vscode.commands.registerCommand(COMMANDS.reviewBranch, (arg?: unknown) => reviewFromCommand(services, arg, sinceOf(arg) ?? pickBranch)),
    vscode.commands.registerCommand(COMMANDS.clearReview, () => services.reviewProblems.clear()),
    vscode.commands.registerCommand(COMMANDS.dismissReviewFinding, (uri: unknown, line: unknown, message: unknown) => {
      if (uri instanceof vscode.Uri && typeof line === 'number' && typeof message === 'string') services.reviewProblems.dismiss(uri, line, message);
    }),
  );
}

/** The review's one-line outcome: how many findings in how many files, by which model, at what cost. */
export function reviewSummary(review: Review, t: Translate): string {
  const files = review.reviewed.length;
  const since = review.since;
  let said: string;
  if (since === undefined) {
    said = review.findings.length === 0
      ? t('{0} found nothing to report in {1} changed file(s).', review.model, files)
      : t('{0} found {1} problem(s) in {2} changed file(s).', review.model, review.findings.length, files);
  } else {
    said = review.findings.length === 0
      ? t('{0} found nothing to report in {1} file(s) changed since {2}.', review.model, files, since)
      : t('{0} found {1} problem(s) in {2} file(s) changed since {3}.', review.model, review.findings.length, files, since);
  }
  return review.usage ? `${said} (${usageLine(review.usage, t)})` : said;
}

/** What is said when there is nothing to review. */
export function noChanges(since: string | undefined, t: Translate): string {
  return since === undefined ? t('There are no changes to review: change a file first.') : t('Nothing changed since {0}.', since);
}

/** Why no file was sent: each changed one is deleted, binary, generated or too large for the model. */
export function nothingReviewable(error: NothingReviewableError, model: string, t: Translate): string {
  return t('None of the changed files can be reviewed: {0}. Each is deleted, binary, generated, private, or larger than {1} can read at once.', error.files.join(', '), model);
}

function sinceOf(arg: unknown): string | undefined {
  const since = (arg as { since?: unknown } | undefined)?.since;
  return typeof since === 'string' && since.trim() !== '' ? since.trim() : undefined;
}

/** The branch to review the current one against: the repository's branches, the usual default branches first. */
function pickBranch(gitPath: string, repository: GitRepository): Promise<string | undefined> {
  return pickBaseBranch(gitPath, repository, vscode.l10n.t('Review what this branch changed since it left which branch?'));
}

/** A branch of the repository picked by the user (the usual default branches first); undefined when they cancel. */
export async function pickBaseBranch(gitPath: string, repository: GitRepository, title: string): Promise<string | undefined> {
  const names = await branchNames(gitPath, repository.rootUri.fsPath, new AbortController().signal);
  const usual = (name: string) => (/^(origin\/)?(main|master|trunk|develop)$/.test(name) ? 0 : 1);
  const ordered = [...names].sort((a, b) => usual(a) - usual(b));
  return vscode.window.showQuickPick(ordered, { title });
}

type SinceChoice = string | ((gitPath: string, repository: GitRepository) => Promise<string | undefined>);

async function reviewFromCommand(services: ExtensionServices, arg: unknown, sinceChoice?: SinceChoice): Promise<Review | undefined> {
  const t = vscode.l10n.t;
  const repository = await chooseRepository(arg, t('Review the changes of which repository?'));
  if (!repository) return undefined;
  const gitPath = (await gitApi())?.git.path ?? 'git';
  let since: string | undefined;
  if (typeof sinceChoice === 'string') since = sinceChoice;
  else if (sinceChoice) {
    try {
      since = await sinceChoice(gitPath, repository);
    } catch (error) {
      void vscode.window.showErrorMessage(t('Git could not list the branches: {0}', error instanceof Error ? error.message : String(error)));
      return undefined;
    }
    if (since === undefined) return undefined;
  }
  const model = await chatModelOrPick(services, t('Pick the gateway model that reviews changes first.'));
  if (model === null) return undefined;
  const review = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Reviewing the changes with {0}…', model), cancellable: true },
    async (progress, token) => {
      const abort = signalFromToken(token);
      try {
        const done = await reviewChanges(services, repository, gitPath, model, '', {
          signal: abort.signal,
          ...(since === undefined ? {} : { since }),
          onAsking: (files) => progress.report({ message: t('{0} file(s)', files.length) }),
        });
        if (!done) void vscode.window.showInformationMessage(noChanges(since, t));
        return done ?? undefined;
      } catch (error) {
        if (error instanceof GitDiffError) void vscode.window.showErrorMessage(t('Git could not show the changes: {0}', error.message));
        else if (error instanceof NothingReviewableError) void vscode.window.showWarningMessage(nothingReviewable(error, model, t));
        else if (!token.isCancellationRequested) await showErrorWithFixes(services, error, t('Review'));
        return undefined;
      } finally {
        abort.dispose();
      }
    },
  );
  if (!review) return undefined;
  services.reviewProblems.show(review);
  const showProblems = t('Show Problems');
  void vscode.window.showInformationMessage(reviewSummary(review, t), ...(review.findings.length > 0 ? [showProblems] : [])).then((choice) => {
    if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
  });
  return review;
}
