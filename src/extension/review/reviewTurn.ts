/**
 * `@gateway /review [what to look at]`: the uncommitted changes of the workspace's repository reviewed by the chat
 * model (review.ts), answered in the chat as a list of findings, each a link to its line, and put in the Problems
 * panel as the "Review Changes" command does.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { showView } from '../chat/chatTurn.ts';
import { chatModelFor } from '../chat/chatModel.ts';
import { failureView, noModelView } from '../chat/views.ts';
import { chooseRepository, gitApi } from '../commitMessage/git.ts';
import { escapeMarkdown, explainError } from '../errors/explain.ts';
import type { ExtensionServices } from '../services.ts';
import type { Translate } from '../translate.ts';
import { GitDiffError, NothingReviewableError, reviewChanges, type Review } from './review.ts';
import { noChanges, nothingReviewable, reviewSummary } from './reviewCommand.ts';
import { parseReviewAsk, type Finding } from './reviewPrompt.ts';

export async function answerReview(services: ExtensionServices, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { t } = services;
  const model = chatModelFor(request.model, services.settings.current.model);
  if (model === '') {
    showView(stream, noModelView(t));
    return { metadata: { failed: true } };
  }
  const repository = await chooseRepository(undefined, t('Review the changes of which repository?'));
  if (!repository) {
    stream.markdown(t('Open a folder that is a Git repository (with VS Code\'s Git extension on) to review its changes.'));
    return { metadata: { failed: true } };
  }
  const abort = signalFromToken(token);
  try {
    stream.progress(t('Reading the changes…'));
    const gitPath = (await gitApi())?.git.path ?? 'git';
    const only = attachedPaths(request, repository.rootUri);
    const { since, focus } = parseReviewAsk(promptWithoutReferences(request));
    const review = await reviewChanges(services, repository, gitPath, model, focus, {
      signal: abort.signal,
      ...(since === undefined ? {} : { since }),
      ...(only.length > 0 ? { only } : {}),
      onAsking: (files) => stream.progress(t('Reviewing {0} file(s) with {1}…', files.length, model)),
      onFinding: (finding) => showFinding(stream, repository.rootUri, finding),
    });
    if (!review) {
      stream.markdown(escapeMarkdown(only.length > 0 ? t('The attached files have no changes to review: {0}.', only.join(', ')) : noChanges(since, t)));
      return { metadata: { command: 'review' } };
    }
    services.reviewProblems.show(review);
    showSummary(stream, review, t);
    if (review.findings.some((finding) => finding.at)) stream.button({ title: t('Show Problems'), command: 'workbench.actions.view.problems' });
    return { metadata: { command: 'review' } };
  } catch (error) {
    if (token.isCancellationRequested) return { metadata: { command: 'review' } };
    if (error instanceof GitDiffError) stream.markdown(escapeMarkdown(t('Git could not show the changes: {0}', error.message)));
    else if (error instanceof NothingReviewableError) stream.markdown(escapeMarkdown(nothingReviewable(error, model, t)));
    else showView(stream, failureView(explainError(error, t, services.connection.secrets()), t));
    return { metadata: { failed: true } };
  } finally {
    abort.dispose();
  }
}

/** The files attached to the prompt (#file, a selection's file) inside the repository, as paths relative to its root: the review keeps to them. */
function attachedPaths(request: vscode.ChatRequest, root: vscode.Uri): string[] {
  const paths = request.references.flatMap((reference) => {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (!uri || uri.scheme !== 'file') return [];
    const relative = path.relative(root.fsPath, uri.fsPath).split(path.sep).join('/');
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? [] : [relative];
  });
  return [...new Set(paths)];
}

/** The prompt with the attachments' own text (`#file:a.ts`) taken out: what is left says what to look at. */
function promptWithoutReferences(request: vscode.ChatRequest): string {
  const ranges = request.references.flatMap((reference) => (reference.range ? [reference.range] : [])).sort((a, b) => b[0] - a[0]);
  let prompt = request.prompt;
  for (const [start, end] of ranges) prompt = prompt.slice(0, start) + prompt.slice(end);
  return prompt.replace(/\s+/g, ' ').trim();
}

const MARK: Record<Finding['severity'], string> = { error: '$(error)', warning: '$(warning)', info: '$(info)' };

/** A finding as a list item: its mark, a link to its line (its place as the model wrote it when it has none), its words. */
function showFinding(stream: vscode.ChatResponseStream, root: vscode.Uri, finding: Finding): void {
  stream.markdown(new vscode.MarkdownString(`- ${MARK[finding.severity]} `, true));
  if (finding.at) {
    stream.anchor(new vscode.Location(vscode.Uri.joinPath(root, finding.at.path), new vscode.Position(finding.at.line - 1, 0)), `${finding.at.path}:${finding.at.line}`);
    stream.markdown(` ${escapeMarkdown(finding.message)}\n`);
  } else stream.markdown(`${escapeMarkdown(`${finding.said}: ${finding.message}`)}\n`);
}

function showSummary(stream: vscode.ChatResponseStream, review: Review, t: Translate): void {
  const lines = [`_${escapeMarkdown(reviewSummary(review, t))}_`];
  if (review.leftOut.length > 0) lines.push(`_${escapeMarkdown(t('Not reviewed (deleted, binary, generated, private or over the length budget): {0}', review.leftOut.join(', ')))}_`);
  stream.markdown(`${review.findings.length > 0 ? '\n' : ''}${lines.join('\n\n')}`);
}
