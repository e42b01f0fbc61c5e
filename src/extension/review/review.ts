/**
 * A review of a repository's uncommitted changes by the chat model: the changes numbered line by line, the
 * repository's instructions, the answer read into findings, and the findings put in the Problems panel (each
 * review of a repository replaces that repository's previous findings; "Clear Review Findings" removes them all).
 */
import * as vscode from 'vscode';
import type { Usage } from '../../contract/index.ts';
import { repositoryInstructions } from '../instructions/instructionFiles.ts';
import type { ExtensionServices } from '../services.ts';
import type { GitRepository } from '../commitMessage/git.ts';
import { numberedDiff, parseDiff, type FileDiff } from './numberedDiff.ts';
import { parseFindings, REVIEW_BUDGET_CHARS, reviewPrompt, type Finding } from './reviewPrompt.ts';
import { uncommittedDiff } from './uncommittedChanges.ts';
import { lineAfterEdit } from './followEdits.ts';

export interface Review {
  readonly model: string;
  readonly root: vscode.Uri;
  readonly findings: readonly Finding[];
  readonly reviewed: readonly FileDiff[];
  readonly leftOut: readonly string[];
  readonly usage: Usage | undefined;
}

export interface ReviewSteps {
  readonly signal: AbortSignal;
  /** Said once the changes are read, before the model is asked. */
  readonly onAsking?: (files: readonly FileDiff[]) => void;
}

/** Git could not say what changed (not a repository any more, a broken index, a timeout). */
export class GitDiffError extends Error {
  override readonly name = 'GitDiffError';
}

/** The review; null when there is nothing to review (no changes, or none a model can read). */
export async function reviewChanges(services: ExtensionServices, repository: GitRepository, gitPath: string, model: string, focus: string, steps: ReviewSteps): Promise<Review | null> {
  let diff: string;
  try {
    diff = await uncommittedDiff(gitPath, repository.rootUri.fsPath, steps.signal);
  } catch (error) {
    if (steps.signal.aborted) throw error;
    throw new GitDiffError(error instanceof Error ? error.message : String(error));
  }
  const { text, shown, leftOut } = numberedDiff(parseDiff(diff), REVIEW_BUDGET_CHARS);
  if (shown.length === 0) return null;
  const { text: instructions } = await repositoryInstructions(services.settings.current, { roots: [repository.rootUri] });
  steps.onAsking?.(shown);
  const client = await services.connection.require();
  const answer = await client.chat({ model, messages: reviewPrompt({ diff: text, leftOut, focus, instructions }) }, { signal: steps.signal });
  services.connection.balanceMayHaveChanged();
  const findings = parseFindings(answer.choices[0]?.message.content ?? '', shown);
  services.log.info(`Review by ${model}: ${findings.length} finding(s) in ${shown.length} file(s)${leftOut.length ? `; not reviewed: ${leftOut.join(', ')}` : ''}.`);
  return { model, root: repository.rootUri, findings, reviewed: shown, leftOut, usage: answer.usage ?? undefined };
}

const SEVERITY: Record<Finding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** The findings in the Problems panel, by repository; they follow the edits made to their files since. */
export class ReviewProblems implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('model-gateway-review');
  readonly #byRoot = new Map<string, vscode.Uri[]>();
  readonly #edits = vscode.workspace.onDidChangeTextDocument((event) => this.#follow(event));

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
        const moved = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), diagnostic.message, diagnostic.severity);
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
      const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), finding.message, SEVERITY[finding.severity]);
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
    this.#collection.dispose();
  }
}
