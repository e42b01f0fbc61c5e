/**
 * "Review Changes" (Source Control title bar, command palette) and "Clear Review Findings": the uncommitted
 * changes of a repository reviewed by the chat model, the findings in the Problems panel, a notification that says
 * how many and what it cost. `@gateway /review` (reviewTurn.ts) is the same review, answered in the chat.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { usageLine } from '../chat/usageLine.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { chooseRepository, gitApi } from '../commitMessage/git.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { Translate } from '../translate.ts';
import { GitDiffError, reviewChanges, type Review } from './review.ts';

export function registerReviewCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.reviewChanges, (arg?: unknown) => reviewFromCommand(services, arg)),
    vscode.commands.registerCommand(COMMANDS.clearReview, () => services.reviewProblems.clear()),
  );
}

/** The review's one-line outcome: how many findings in how many files, by which model, at what cost. */
export function reviewSummary(review: Review, t: Translate): string {
  const files = review.reviewed.length;
  const said = review.findings.length === 0
    ? t('{0} found nothing to report in {1} changed file(s).', review.model, files)
    : t('{0} found {1} problem(s) in {2} changed file(s).', review.model, review.findings.length, files);
  return review.usage ? `${said} (${usageLine(review.usage, t)})` : said;
}

async function reviewFromCommand(services: ExtensionServices, arg: unknown): Promise<Review | undefined> {
  const t = vscode.l10n.t;
  const repository = await chooseRepository(arg, t('Review the changes of which repository?'));
  if (!repository) return undefined;
  const model = await chatModelOrPick(services, t('Pick the gateway model that reviews changes first.'));
  if (model === null) return undefined;
  const review = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Reviewing the changes with {0}…', model), cancellable: true },
    async (progress, token) => {
      const abort = signalFromToken(token);
      try {
        const gitPath = (await gitApi())?.git.path ?? 'git';
        const done = await reviewChanges(services, repository, gitPath, model, '', {
          signal: abort.signal,
          onAsking: (files) => progress.report({ message: t('{0} file(s)', files.length) }),
        });
        if (!done) void vscode.window.showInformationMessage(t('There are no changes to review: change a file first.'));
        return done ?? undefined;
      } catch (error) {
        if (error instanceof GitDiffError) void vscode.window.showErrorMessage(t('Git could not show the changes: {0}', error.message));
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
