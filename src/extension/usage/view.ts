/**
 * The "Model Gateway: Usage" view (a webview view in the Model Gateway side bar): balance, today's and
 * this month's spending and a chart of recent days. Read when the view shows, when the connection
 * changes (settings, key, profile), after a request that may have spent money, and on Refresh; never
 * while hidden. Scripts are off: the page is static HTML re-rendered on each read.
 */
import * as vscode from 'vscode';
import { explainError } from '../errors/explain.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { usagePage } from './page.ts';
import type { UsageViewState } from './page.ts';
import { readUsage } from './readUsage.ts';

export const USAGE_VIEW_ID = 'modelGateway.usage';

export class UsageView implements vscode.WebviewViewProvider, vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #subscriptions: vscode.Disposable[] = [];
  #view: vscode.WebviewView | undefined;
  #state: UsageViewState = { kind: 'loading' };
  #reads = 0;
  #abort: AbortController | undefined;

  constructor(services: ExtensionServices) {
    this.#services = services;
    this.#subscriptions.push(
      services.connection.onDidChange(() => void this.refresh()),
      services.connection.onBalanceMayHaveChanged(() => void this.refresh()),
    );
  }

  /** What the view shows now (for the in-editor tests). */
  get state(): UsageViewState {
    return this.#state;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.#view = view;
    view.webview.options = { enableScripts: false, localResourceRoots: [vscode.Uri.joinPath(this.#services.context.extensionUri, 'media')] };
    this.#subscriptions.push(
      view.onDidChangeVisibility(() => void this.refresh()),
      view.onDidDispose(() => (this.#view = undefined)),
    );
    this.#render();
    void this.refresh();
  }

  /** Read again (a newer read wins; one in flight is aborted). Does nothing while the view is hidden. */
  async refresh(): Promise<void> {
    if (!this.#view?.visible) return;
    const read = ++this.#reads;
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    let state: UsageViewState;
    try {
      const client = await this.#services.connection.require();
      const summary = await readUsage(client, new Date(), abort.signal);
      state = { kind: 'ready', summary, gateway: this.#services.connection.state.root ?? '' };
    } catch (error) {
      if (abort.signal.aborted) return;
      const explanation = explainError(error, vscode.l10n.t, this.#services.connection.secrets());
      this.#services.log.warn(`Usage view: ${explanation.title}: ${explanation.errorText}`);
      state = { kind: 'problem', title: explanation.title, detail: [explanation.meaning, explanation.hint].filter(Boolean).join(' ') };
    }
    if (read !== this.#reads) return;
    this.#state = state;
    this.#render();
  }

  #render(): void {
    const webview = this.#view?.webview;
    if (!webview) return;
    const styleUri = webview.asWebviewUri(vscode.Uri.joinPath(this.#services.context.extensionUri, 'media', 'usage.css')).toString();
    webview.html = usagePage(this.#state, { cspSource: webview.cspSource, styleUri }, vscode.l10n.t);
  }

  dispose(): void {
    this.#abort?.abort();
    for (const subscription of this.#subscriptions) subscription.dispose();
  }
}

export function registerUsageView(context: vscode.ExtensionContext, services: ExtensionServices): UsageView {
  const view = new UsageView(services);
  context.subscriptions.push(
    view,
    vscode.window.registerWebviewViewProvider(USAGE_VIEW_ID, view),
    vscode.commands.registerCommand(COMMANDS.refreshUsage, () => view.refresh()),
    vscode.commands.registerCommand(COMMANDS.showUsage, () => vscode.commands.executeCommand(`${USAGE_VIEW_ID}.focus`)),
  );
  return view;
}
