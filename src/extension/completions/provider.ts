/**
 * The InlineCompletionItemProvider (vscode glue over engine.ts): nothing is read or sent for a language
 * switched off or an excluded file; then a debounce, the editor's context within budget, and one
 * request whose signal both VS Code's CancellationToken and the next keystroke abort.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import type { ExtensionServices } from '../services.ts';
import { buildContext, headOf, windowAround } from './context.ts';
import type { OpenFile } from './context.ts';
import { LruCache } from './lruCache.ts';
import { bestSnippet, MAX_SEARCHED_CHARS, referenceIdentifiers, snippetIndex, type SnippetIndex } from './neighbourSnippets.ts';
import type { CompletionEngine } from './engine.ts';
import { completionsEnabledFor } from './enablement.ts';
import { isExcluded } from './excludeGlobs.ts';
import { LatestOnly, abortableDelay } from './latestOnly.ts';
import { completionShape } from './lineMode.ts';
import { acceptItem } from './selectedItem.ts';
import { isAbort } from './route.ts';
import type { CompletionStatusBar } from './statusBar.ts';

/** Documents that are files the user edits (not output panes, the SCM input or settings editors). */
const EDITABLE_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs', 'vscode-notebook-cell']);
/** Other open files looked at for context, newest first. */
const MAX_OPEN_FILES = 5;

function pathOf(document: vscode.TextDocument): string {
  return document.uri.fsPath || document.uri.path;
}

/** Whether a document may be read for completion at all (its language on, its file not excluded). */
export function mayRead(document: vscode.TextDocument, services: ExtensionServices): boolean {
  const settings = services.settings.current;
  return (
    EDITABLE_SCHEMES.has(document.uri.scheme) &&
    completionsEnabledFor(document.languageId, settings.completionModel, settings.completionsEnable) &&
    !isExcluded(pathOf(document), settings.completionsExclude)
  );
}

/** Reads a document's characters from `start` to `end` (positionAt clamps an end past the text). */
function reader(document: vscode.TextDocument): (start: number, end: number) => string {
  return (start, end) => document.getText(new vscode.Range(document.positionAt(start), document.positionAt(end)));
}

/** The nearest line above `line` with text on it, or ''. */
function previousNonBlankLine(document: vscode.TextDocument, line: number): string {
  for (let i = line - 1; i >= 0; i--) {
    const text = document.lineAt(i).text;
    if (text.trim() !== '') return text;
  }
  return '';
}

/** The suggest widget's selected item when its range is on the cursor's line (as VS Code gives it), else undefined. */
function onCursorLine(selected: vscode.SelectedCompletionInfo | undefined, position: vscode.Position): vscode.SelectedCompletionInfo | undefined {
  return selected && selected.range.start.line === position.line && selected.range.end.line === position.line ? selected : undefined;
}

/** The text a request is built from and the cursor in it: the document around the cursor, with the selected item accepted. */
function requestPoint(document: vscode.TextDocument, position: vscode.Position, selected: vscode.SelectedCompletionInfo | undefined) {
  const line = document.lineAt(position.line).text;
  const cursor = document.offsetAt(position);
  const around = windowAround(reader(document), cursor);
  if (!selected) return { ...around, linePrefix: line.slice(0, position.character), lineSuffix: line.slice(position.character) };
  const windowStart = cursor - around.offset;
  const accepted = acceptItem(around.text, {
    start: document.offsetAt(selected.range.start) - windowStart,
    end: document.offsetAt(selected.range.end) - windowStart,
    text: selected.text,
  });
  return { ...accepted, linePrefix: line.slice(0, selected.range.start.character) + selected.text, lineSuffix: line.slice(selected.range.end.character) };
}

export class GatewayInlineCompletionProvider implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #engine: CompletionEngine;
  readonly #status: CompletionStatusBar;
  readonly #latest = new LatestOnly();
  /** Open files' snippet indexes by URI and version: built once per change of a file, not per keystroke. */
  readonly #snippetIndexes = new LruCache<SnippetIndex>(16);

  constructor(services: ExtensionServices, engine: CompletionEngine, status: CompletionStatusBar) {
    this.#services = services;
    this.#engine = engine;
    this.#status = status;
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (!mayRead(document, this.#services)) return undefined;
    const settings = this.#services.settings.current;
    const client = this.#services.connection.client();
    if (!client) return undefined; // not configured: the balance item and the commands say so; no notice per keystroke
    const cancelled = signalFromToken(token);
    const signal = AbortSignal.any([this.#latest.start(), cancelled.signal]);
    try {
      if (context.triggerKind === vscode.InlineCompletionTriggerKind.Automatic) await abortableDelay(settings.completionsDebounceMs, signal);
      const selected = onCursorLine(context.selectedCompletionInfo, position);
      const at = requestPoint(document, position, selected);
      const shape = completionShape(at.linePrefix, at.lineSuffix, previousNonBlankLine(document, position.line));
      const editorContext = buildContext({
        path: vscode.workspace.asRelativePath(document.uri),
        languageId: document.languageId,
        text: at.text,
        offset: at.offset,
        openFiles: this.#openFiles(document, referenceIdentifiers(at.text, at.offset)),
      });
      const answer = await this.#engine.complete(client, { baseUrl: settings.baseUrl, model: settings.completionModel, context: editorContext, shape, signal });
      this.#status.succeeded();
      if (answer.text === '' || signal.aborted) return undefined;
      if (selected) return [new vscode.InlineCompletionItem(selected.text + answer.text, selected.range)];
      return [new vscode.InlineCompletionItem(answer.text, new vscode.Range(position, position))];
    } catch (error) {
      if (isAbort(error) || signal.aborted) return undefined;
      this.#status.failed(error);
      return undefined;
    } finally {
      cancelled.dispose();
    }
  }

  /**
   * Open files of the same language that may be read, most recently shown first, each as the part most like the
   * code before the cursor (`reference`: its identifiers), or its start when no part shares a name with it.
   */
  #openFiles(current: vscode.TextDocument, reference: ReadonlySet<string>): OpenFile[] {
    const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document));
    return vscode.workspace.textDocuments
      .filter((d) => d !== current && d.languageId === current.languageId && mayRead(d, this.#services))
      .sort((a, b) => Number(visible.has(b)) - Number(visible.has(a)))
      .slice(0, MAX_OPEN_FILES)
      .map((d) => ({ path: vscode.workspace.asRelativePath(d.uri), text: bestSnippet(this.#snippetIndexOf(d), reference)?.text ?? headOf(reader(d)) }));
  }

  #snippetIndexOf(document: vscode.TextDocument): SnippetIndex {
    const key = `${document.uri.toString()}@${document.version}`;
    let index = this.#snippetIndexes.get(key);
    if (!index) this.#snippetIndexes.set(key, (index = snippetIndex(reader(document)(0, MAX_SEARCHED_CHARS))));
    return index;
  }

  dispose(): void {
    this.#latest.abort();
  }
}
