/**
 * The review as a language-model tool (`#gatewayReview` in any chat, and for agent mode): a model in VS Code's chat,
 * the gateway's or another vendor's, can have the repository's changes reviewed by the gateway's chat model, read
 * the findings (one line each, with file and line), and fix them; the findings also go to the Problems panel.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { gitApi, repositoryFor } from '../commitMessage/git.ts';
import type { ExtensionServices } from '../services.ts';
import { english } from '../translate.ts';
import { GitDiffError, NothingReviewableError, reviewChanges } from './review.ts';
import { noChanges, nothingReviewable, reviewSummary } from './reviewCommand.ts';

export const REVIEW_TOOL = 'modelGateway_reviewChanges';

interface ToolInput {
  readonly since?: unknown;
  readonly focus?: unknown;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export function registerReviewTool(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const { t } = services;
  context.subscriptions.push(
    vscode.lm.registerTool<ToolInput>(REVIEW_TOOL, {
      prepareInvocation: () => ({ invocationMessage: t('Reviewing the changes with {0}', services.settings.current.model || t('the gateway')) }),
      invoke: async (options, token) => {
        // Thrown errors reach the calling model as the tool's answer: each says what to do, in English (the model's reading).
        const model = services.settings.current.model;
        if (model === '') throw new Error('Model Gateway has no chat model set (modelGateway.model). The user can pick one with the command "Model Gateway: Pick Model".');
        const api = await gitApi();
        if (!api) throw new Error('VS Code\'s Git extension is missing or turned off (git.enabled): there are no changes to review.');
        const repository = repositoryFor(api, undefined);
        if (!repository) {
          throw new Error(api.repositories.length === 0
            ? 'No Git repository is open in VS Code.'
            : 'Several Git repositories are open: open a file of the one to review in the editor, then call the tool again.');
        }
        const since = textOf(options.input.since);
        if (since.startsWith('-')) throw new Error(`"${since}" is not a branch.`);
        const abort = signalFromToken(token);
        try {
          const review = await reviewChanges(services, repository, api.git.path, model, textOf(options.input.focus), { signal: abort.signal, ...(since ? { since } : {}) });
          if (!review) return result(noChanges(since || undefined, english));
          services.reviewProblems.show(review);
          const lines = review.findings.map((f) => `${f.at ? `${f.at.path}:${f.at.line}` : f.said}: ${f.severity}: ${f.message}`);
          if (review.leftOut.length > 0) lines.push(`Not reviewed (deleted, binary, generated, private or over the length budget): ${review.leftOut.join(', ')}`);
          lines.push(reviewSummary(review, english));
          return result(lines.join('\n'));
        } catch (error) {
          if (error instanceof GitDiffError) throw new Error(`Git could not show the changes: ${error.message}`);
          if (error instanceof NothingReviewableError) throw new Error(nothingReviewable(error, model, english));
          throw error;
        } finally {
          abort.dispose();
        }
      },
    }),
  );
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
