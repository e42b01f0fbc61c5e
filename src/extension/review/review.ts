/**
 * A review of a repository's changes by the chat model (the uncommitted ones, or a branch's since another): the
 * changes numbered line by line and sized to the model's context, files where secrets live left out, the
 * repository's instructions, and the streamed answer read into findings. Where they are shown: reviewProblems.ts
 * (the Problems panel), reviewCommand.ts, reviewTurn.ts (the chat) and reviewTool.ts.
 */
import * as vscode from 'vscode';
import type { Usage } from '../../contract/index.ts';
import { repositoryInstructions } from '../instructions/instructionFiles.ts';
import type { ExtensionServices } from '../services.ts';
import type { GitRepository } from '../commitMessage/git.ts';
import { numberedDiff, parseDiff, type FileDiff } from './numberedDiff.ts';
import { FindingsReader, REVIEW_BUDGET_CHARS, reviewPrompt, type Finding } from './reviewPrompt.ts';
import { changesDiff } from './changesDiff.ts';
import { budgetChars, modelInputTokens } from '../chat/inputBudget.ts';
import { isExcluded } from '../completions/excludeGlobs.ts';

export interface Review {
  readonly model: string;
  readonly root: vscode.Uri;
  readonly findings: readonly Finding[];
  readonly reviewed: readonly FileDiff[];
  readonly leftOut: readonly string[];
  readonly usage: Usage | undefined;
  /** What the changes were counted from, when not HEAD. */
  readonly since?: string;
}

export interface ReviewSteps {
  readonly signal: AbortSignal;
  /** Review what the branch changed since it left this one (a branch or a commit); the uncommitted changes when absent. */
  readonly since?: string;
  /** Said once the changes are read, before the model is asked. */
  readonly onAsking?: (files: readonly FileDiff[]) => void;
  /** Only these files (paths relative to the repository's root), when given. */
  readonly only?: readonly string[];
  /** Each finding as the model's answer gives it. */
  readonly onFinding?: (finding: Finding) => void;
}

/** Git could not say what changed (not a repository any more, a broken index, a timeout). */
export class GitDiffError extends Error {
  override readonly name = 'GitDiffError';
}

/** There are changes, but none the model can be shown: each is deleted, binary, generated or larger than its context allows. */
export class NothingReviewableError extends Error {
  override readonly name = 'NothingReviewableError';
  readonly files: readonly string[];
  constructor(files: readonly string[]) {
    super(`none of the changed files can be reviewed: ${files.join(', ')}`);
    this.files = files;
  }
}

/** The review; null when there are no changes. */
export async function reviewChanges(services: ExtensionServices, repository: GitRepository, gitPath: string, model: string, focus: string, steps: ReviewSteps): Promise<Review | null> {
  let diff: string;
  try {
    diff = await changesDiff(gitPath, repository.rootUri.fsPath, steps.signal, steps.since);
  } catch (error) {
    if (steps.signal.aborted) throw error;
    throw new GitDiffError(error instanceof Error ? error.message : String(error));
  }
  const files = parseDiff(diff).filter((file) => !steps.only || steps.only.includes(file.path));
  if (files.length === 0) return null;
  const client = await services.connection.require();
  const budget = budgetChars(await modelInputTokens(client, model, steps.signal), REVIEW_BUDGET_CHARS);
  // The files where secrets live (the list inline completion never sends, and the user's) are named, never shown.
  const { text, shown, leftOut } = numberedDiff(files, budget, (path) => isExcluded(path, services.settings.current.completionsExclude));
  if (shown.length === 0) throw new NothingReviewableError(leftOut);
  const { text: instructions } = await repositoryInstructions(services.settings.current, { roots: [repository.rootUri] });
  steps.onAsking?.(shown);
  const messages = reviewPrompt({ diff: text, leftOut, focus, instructions, ...(steps.since === undefined ? {} : { since: steps.since }) });
  // Streamed: each finding is told as soon as its line is complete, not after the whole answer.
  const reader = new FindingsReader(shown);
  const findings: Finding[] = [];
  const found = (more: readonly Finding[]) => {
    for (const finding of more) {
      findings.push(finding);
      steps.onFinding?.(finding);
    }
  };
  let usage: Usage | undefined;
  try {
    for await (const chunk of client.chatStream({ model, messages, stream: true, stream_options: { include_usage: true } }, { signal: steps.signal })) {
      if (chunk.usage) usage = chunk.usage;
      found(reader.push(chunk.choices[0]?.delta?.content ?? ''));
    }
  } finally {
    services.connection.balanceMayHaveChanged();
  }
  found(reader.finish());
  services.log.info(`Review by ${model}: ${findings.length} finding(s) in ${shown.length} file(s)${leftOut.length ? `; not reviewed: ${leftOut.join(', ')}` : ''}.`);
  return { model, root: repository.rootUri, findings, reviewed: shown, leftOut, usage, ...(steps.since === undefined ? {} : { since: steps.since }) };
}
