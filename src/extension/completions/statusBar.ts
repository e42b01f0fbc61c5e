/**
 * The completions status bar item (`modelGateway.completions`): on, off (with why), or failing with the
 * contract's diagnosis in the tooltip; a click toggles. Failures are notified once per kind of problem
 * (completionStatus.ts); the logic lives there, this is the vscode glue.
 */
import * as vscode from 'vscode';
import { explainError } from '../errors/explain.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { FailureNotices, statusView } from './completionStatus.ts';
import type { CompletionState } from './completionStatus.ts';
import { completionsEnabledFor } from './enablement.ts';
import { isExcluded } from './excludeGlobs.ts';

export const COMPLETIONS_ITEM_ID = 'modelGateway.completions';

export class CompletionStatusBar implements vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #item: vscode.StatusBarItem;
  readonly #notices = new FailureNotices();
  readonly #subscriptions: vscode.Disposable[] = [];
  #failure: Extract<CompletionState, { kind: 'failing' }> | null = null;
  #state: CompletionState = { kind: 'off', reason: 'no_model', model: '' };

  constructor(services: ExtensionServices) {
    this.#services = services;
    this.#item = vscode.window.createStatusBarItem(COMPLETIONS_ITEM_ID, vscode.StatusBarAlignment.Right, 101);
    this.#item.name = vscode.l10n.t('Model Gateway Completions');
    this.#item.command = COMMANDS.toggleCompletions;
    const fresh = () => {
      this.#failure = null;
      this.#notices.reset();
      this.render();
    };
    this.#subscriptions.push(services.settings.onDidChange(fresh), services.connection.onDidChange(fresh), vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this.render();
  }

  get state(): CompletionState {
    return this.#state;
  }

  /** A completion came back: a failure shown before is over. */
  succeeded(): void {
    if (this.#failure === null) return;
    this.#failure = null;
    this.#notices.reset();
    this.render();
  }

  /** A completion failed (not a cancellation): say it in the item, and once as a notification. */
  failed(error: unknown): void {
    const explanation = explainError(error, vscode.l10n.t, this.#services.connection.secrets());
    this.#failure = { kind: 'failing', model: this.#services.settings.current.completionModel, explanation };
    this.render();
    if (this.#notices.shouldNotify(explanation)) void showErrorWithFixes(this.#services, error, vscode.l10n.t('Inline completion'));
  }

  render(): void {
    const settings = this.#services.settings.current;
    const model = settings.completionModel;
    const document = vscode.window.activeTextEditor?.document;
    if (model === '') this.#state = { kind: 'off', reason: 'no_model', model };
    // Nothing can be asked without an address and a key: "on" would promise ghost text that never comes.
    else if (!this.#services.connection.state.configured) this.#state = { kind: 'off', reason: 'not_configured', model };
    else if (document && isExcluded(document.uri.fsPath || document.uri.path, settings.completionsExclude)) this.#state = { kind: 'off', reason: 'excluded', model };
    else if (settings.completionsEnable['*'] === false && !(document && settings.completionsEnable[document.languageId] === true)) this.#state = { kind: 'off', reason: 'switched_off', model };
    else if (document && !completionsEnabledFor(document.languageId, model, settings.completionsEnable)) this.#state = { kind: 'off', reason: 'language', model };
    else this.#state = this.#failure ?? { kind: 'on', model };
    const view = statusView(this.#state, vscode.l10n.t);
    this.#item.text = view.text;
    this.#item.tooltip = view.tooltip;
    this.#item.backgroundColor = this.#state.kind === 'failing' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#item.show();
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#item.dispose();
  }
}
