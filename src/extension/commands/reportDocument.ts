/** The self-test report as a read-only Markdown document (scheme `model-gateway-report`). */
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'model-gateway-report';
export const REPORT_URI = vscode.Uri.from({ scheme: REPORT_SCHEME, path: '/Model Gateway Self-Test.md' });

export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#emitter.event;
  #text = '';

  provideTextDocumentContent(): string {
    return this.#text;
  }

  /** Replace the report and show it in an editor. */
  async show(markdown: string): Promise<vscode.TextEditor> {
    this.#text = markdown;
    this.#emitter.fire(REPORT_URI);
    const document = await vscode.workspace.openTextDocument(REPORT_URI);
    if (document.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    return vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
  }

  dispose(): void {
    this.#emitter.dispose();
  }
}
