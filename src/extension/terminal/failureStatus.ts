/**
 * "Explain failure" in the status bar while a terminal's last command has failed: one click opens the chat with
 * `@gateway /terminal` about it. Unobtrusive on purpose (a notification at every failed build would be noise): it goes
 * when a command succeeds in that terminal, the terminal closes, it is used, or after a while; never shown while the
 * extension has no gateway to ask, or with `modelGateway.terminal.explainFailures` off.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { TerminalFailure, TerminalHistory } from './terminalHistory.ts';

export const FAILURE_ITEM_ID = 'modelGateway.terminalFailure';
/** How long the offer stays: past this the failure is no longer what the user is looking at. */
const SHOWN_MS = 10 * 60_000;

export class FailureStatus implements vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #item: vscode.StatusBarItem;
  readonly #subscriptions: vscode.Disposable[];
  #failure: TerminalFailure | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(services: ExtensionServices, history: TerminalHistory) {
    this.#services = services;
    this.#item = vscode.window.createStatusBarItem(FAILURE_ITEM_ID, vscode.StatusBarAlignment.Left, 10);
    this.#item.name = vscode.l10n.t('Model Gateway: Explain Terminal Failure');
    this.#subscriptions = [
      history.onDidFail((failure) => this.#show(failure)),
      history.onDidSucceed((terminal) => this.#clearFor(terminal)),
      vscode.window.onDidCloseTerminal((terminal) => this.#clearFor(terminal)),
      services.settings.onDidChange(() => this.#render()),
      services.connection.onDidChange(() => this.#render()),
    ];
  }

  /** The failure on offer, null when none (for the in-editor suite). */
  get failure(): TerminalFailure | null {
    return this.#failure;
  }

  /** Whether the item is on screen now (for the in-editor suite). */
  get visible(): boolean {
    return this.#failure !== null && this.#shown();
  }

  /** The failure was explained: the offer goes. */
  taken(): void {
    this.#set(null);
  }

  #show(failure: TerminalFailure): void {
    this.#set(failure);
    this.#timer = setTimeout(() => this.#set(null), SHOWN_MS);
  }

  #clearFor(terminal: vscode.Terminal): void {
    if (this.#failure?.terminal === terminal) this.#set(null);
  }

  #set(failure: TerminalFailure | null): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#failure = failure;
    this.#render();
  }

  #shown(): boolean {
    return this.#services.settings.current.explainTerminalFailures && this.#services.connection.state.configured;
  }

  #render(): void {
    const failure = this.#failure;
    if (!failure || !this.#shown()) {
      this.#item.hide();
      return;
    }
    const t = vscode.l10n.t;
    this.#item.text = `$(sparkle) ${t('Explain failure')}`;
    const command = failure.command.length > 80 ? `${failure.command.slice(0, 79)}…` : failure.command;
    this.#item.tooltip = t('`{0}` failed (exit code {1}) in terminal "{2}": ask Model Gateway why, and how to fix it', command, failure.exitCode, failure.terminal.name);
    this.#item.command = { title: t('Explain Terminal Failure'), command: COMMANDS.explainTerminalFailure, arguments: [failure.terminal] };
    this.#item.show();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#item.dispose();
  }
}
