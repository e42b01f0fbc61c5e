/**
 * The self-test report as a read-only Markdown document (scheme `model-gateway-report`), shown
 * rendered in the built-in Markdown preview; in the source editor where that preview is missing
 * (the built-in Markdown extension disabled) or fails.
 */
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'model-gateway-report';
export const REPORT_URI = vscode.Uri.from({ scheme: REPORT_SCHEME, path: '/Model Gateway Self-Test.md' });
/** The built-in Markdown extension's command: opens a rendered preview of a Markdown resource. */
export const MARKDOWN_PREVIEW_COMMAND = 'markdown.showPreview';

export type ReportView = 'preview' | 'editor';

export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#emitter.event;
  readonly #log: vscode.LogOutputChannel | undefined;
  #text = '';

  constructor(log?: vscode.LogOutputChannel) {
    this.#log = log;
  }

  provideTextDocumentContent(): string {
    return this.#text;
  }

  /** Replace the report and show it: rendered in the Markdown preview, else in a source editor. */
  async show(markdown: string): Promise<ReportView> {
    this.#text = markdown;
    this.#emitter.fire(REPORT_URI);
    const document = await vscode.workspace.openTextDocument(REPORT_URI);
    if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    // Not looked up in getCommands(): the Markdown extension registers the command only once it is
    // activated, which running the command does. A missing command rejects ("command ... not found").
    try {
      await vscode.commands.executeCommand(MARKDOWN_PREVIEW_COMMAND, REPORT_URI);
      return 'preview';
    } catch (error) {
      this.#log?.warn(`The Markdown preview could not show the self-test report; showing its source: ${error instanceof Error ? error.message : String(error)}`);
    }
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
    return 'editor';
  }

  dispose(): void {
    this.#emitter.dispose();
  }
}
