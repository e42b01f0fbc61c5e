/**
 * A review of a repository's uncommitted changes by the chat model: the changes numbered line by line, the
 * repository's instructions, the answer read into findings, and the findings put in the Problems panel (each
 * review of a repository replaces that repository's previous findings; "Clear Review Findings" removes them all).
 */
import * as vscode from 'vscode';
import type { Usage } from '../../contract/index.ts';
import { COMMANDS } from '../ids.ts';
import { repositoryInstructions } from '../instructions/instructionFiles.ts';
import type { ExtensionServices } from '../services.ts';
import type { GitRepository } from '../commitMessage/git.ts';
import { numberedDiff, parseDiff, type FileDiff } from './numberedDiff.ts';
import { FindingsReader, REVIEW_BUDGET_CHARS, reviewPrompt, type Finding } from './reviewPrompt.ts';
import { changesDiff } from './changesDiff.ts';
import { lineAfterEdit } from './followEdits.ts';
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

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** A finding's whole line (to the next line's start: the length of the line is not known here). */
function lineRange(line: number): vscode.Range {
  return new vscode.Range(line, 0, line + 1, 0);
}

/**
 * The findings in the Problems panel, by repository; they follow the edits made to their files since, and each has
 * "Dismiss Review Finding" in its light bulb (beside "Fix with Model Gateway" for errors and warnings).
 */
export class ReviewProblems implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('model-gateway-review');
  readonly #byRoot = new Map<string, vscode.Uri[]>();
  readonly #edits = vscode.workspace.onDidChangeTextDocument((event) => this.#follow(event));
  readonly #dismissActions = vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, { provideCodeActions: (document, range) => this.#dismissActionsAt(document.uri, range) }, {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  });

  /** The findings on the lines of `range`, each with its own Dismiss. */
  #dismissActionsAt(uri: vscode.Uri, range: vscode.Range): vscode.CodeAction[] {
    return (this.#collection.get(uri) ?? [])
      .filter((diagnostic) => diagnostic.range.start.line >= range.start.line && diagnostic.range.start.line <= range.end.line)
      .map((diagnostic) => {
        const action = new vscode.CodeAction(vscode.l10n.t('Dismiss Review Finding'), vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.command = { command: COMMANDS.dismissReviewFinding, title: action.title, arguments: [uri, diagnostic.range.start.line, diagnostic.message] };
        return action;
      });
  }

  /** Removes the finding with this message on this line (0-based). */
  dismiss(uri: vscode.Uri, line: number, message: string): void {
    const left = (this.#collection.get(uri) ?? []).filter((diagnostic) => diagnostic.range.start.line !== line || diagnostic.message !== message);
    this.#collection.set(uri, left);
  }

  #follow(event: vscode.TextDocumentChangeEvent): void {
    let diagnostics = this.#collection.get(event.document.uri);
    if (!diagnostics || diagnostics.length === 0 || event.contentChanges.length === 0) return;
    // Changes of one event do not overlap and each is in the document's coordinates before the event: applied
    // from the last to the first, the earlier ones still hold.
    const changes = [...event.contentChanges].sort((a, b) => b.range.start.compareTo(a.range.start));
    for (const change of changes) {
      const edit = { startLine: change.range.start.line, endLine: change.range.end.line, newLineBreaks: change.text.split('\n').length - 1 };
      diagnostics = diagnostics.flatMap((diagnostic) => {
        const line = lineAfterEdit(diagnostic.range.start.line, edit);
        if (line === null) return [];
        if (line === diagnostic.range.start.line) return [diagnostic];
        const moved = new vscode.Diagnostic(lineRange(line), diagnostic.message, diagnostic.severity);
        moved.source = diagnostic.source;
        return [moved];
      });
    }
    this.#collection.set(event.document.uri, diagnostics);
  }

  show(review: Review): void {
    for (const uri of this.#byRoot.get(review.root.toString()) ?? []) this.#collection.delete(uri);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const finding of review.findings) {
      if (!finding.at) continue;
      const line = finding.at.line - 1;
      const diagnostic = new vscode.Diagnostic(lineRange(line), finding.message, SEVERITY[finding.severity]);
      diagnostic.source = vscode.l10n.t('Model Gateway review ({0})', review.model);
      byFile.set(finding.at.path, [...(byFile.get(finding.at.path) ?? []), diagnostic]);
    }
    const uris = [...byFile].map(([path, diagnostics]) => {
      const uri = vscode.Uri.joinPath(review.root, path);
      this.#collection.set(uri, diagnostics);
      return uri;
    });
    this.#byRoot.set(review.root.toString(), uris);
  }

  clear(): void {
    this.#collection.clear();
    this.#byRoot.clear();
  }

  dispose(): void {
    this.#edits.dispose();
    this.#dismissActions.dispose();
    this.#collection.dispose();
  }
}
