/**
 * The findings of reviews in the Problems panel, by repository: each review of a repository replaces its previous
 * findings, they follow the edits made to their files since, and each has "Dismiss Review Finding" in its light bulb
 * (beside "Fix with Model Gateway" for errors and warnings); "Clear Review Findings" removes them all. They are kept in
 * the workspace's state and come back after a reload on the files whose text has not changed (savedFindings.ts).
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import { lineAfterEdit } from './followEdits.ts';
import type { Review } from './review.ts';
import type { Finding } from './reviewPrompt.ts';
import { REVIEW_STATE_KEY, savedFiles, stillFitting, textHash, type SavedFile } from './savedFindings.ts';

/** Quiet time before the findings are written to the workspace's state (typing moves them at every key). */
const SAVE_DELAY_MS = 500;

/** A file's text as the findings see it: the open document's (unsaved edits too), else the file on disk; null when gone. */
async function textOf(uri: string): Promise<string | null> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
  } catch {
    return null;
  }
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

export class ReviewProblems implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('model-gateway-review');
  readonly #byRoot = new Map<string, vscode.Uri[]>();
  readonly #edits = vscode.workspace.onDidChangeTextDocument((event) => this.#follow(event));
  readonly #state: vscode.Memento | undefined;
  #saveTimer: NodeJS.Timeout | undefined;
  #clearedSinceStart = false;
  /** Settles when the findings kept from the last session are back (or found not to fit any more). */
  readonly restored: Promise<void>;

  constructor(state?: vscode.Memento) {
    this.#state = state;
    this.restored = state ? this.#restore(state).catch(() => undefined) : Promise.resolve();
  }

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
    this.#scheduleSave();
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
    this.#scheduleSave();
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
    this.#scheduleSave();
  }

  clear(): void {
    this.#clearedSinceStart = true;
    this.#collection.clear();
    this.#byRoot.clear();
    this.#scheduleSave();
  }

  #scheduleSave(): void {
    if (!this.#state) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => void this.save(), SAVE_DELAY_MS);
  }

  /** Writes the findings to the workspace's state now, each file with the hash of the text its lines refer to. */
  async save(): Promise<void> {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    if (!this.#state) return;
    // Read at once: the collection may be disposed while the texts are read (a reload saves what was pending).
    const snapshot = [...this.#byRoot].flatMap(([root, uris]) => uris.map((uri) => ({ root, uri, diagnostics: this.#collection.get(uri) ?? [] })));
    const files: SavedFile[] = [];
    for (const { root, uri, diagnostics } of snapshot) {
      const text = diagnostics.length > 0 ? await textOf(uri.toString()) : null;
      if (text === null) continue;
      const findings = diagnostics.map((d) => ({ line: d.range.start.line, message: d.message, severity: d.severity, source: d.source ?? '' }));
      files.push({ uri: uri.toString(), root, hash: textHash(text), findings });
    }
    await this.#state.update(REVIEW_STATE_KEY, files.length > 0 ? { version: 1, files } : undefined);
  }

  async #restore(state: vscode.Memento): Promise<void> {
    const fitting = await stillFitting(savedFiles(state.get(REVIEW_STATE_KEY)), textOf);
    // A review shown, or findings cleared, since the start is newer than anything kept.
    if (this.#clearedSinceStart) return;
    const shown = new Set(this.#byRoot.keys());
    for (const file of fitting) {
      if (shown.has(file.root)) continue;
      const uri = vscode.Uri.parse(file.uri);
      this.#collection.set(uri, file.findings.map((finding) => {
        const diagnostic = new vscode.Diagnostic(lineRange(finding.line), finding.message, finding.severity as vscode.DiagnosticSeverity);
        diagnostic.source = finding.source;
        return diagnostic;
      }));
      this.#byRoot.set(file.root, [...(this.#byRoot.get(file.root) ?? []), uri]);
    }
    this.#scheduleSave();
  }

  dispose(): void {
    if (this.#saveTimer) void this.save();
    this.#edits.dispose();
    this.#dismissActions.dispose();
    this.#collection.dispose();
  }
}
