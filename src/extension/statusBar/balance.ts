/**
 * The balance in the status bar (item `modelGateway.balance`): refreshed on an interval,
 * after each chat (the connection's onBalanceMayHaveChanged), and on settings or key changes (debounced);
 * backs off exponentially on errors. The logic lives in balanceState.ts.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import {
  BALANCE_ITEM_ID,
  SOFT_REFRESH_DEBOUNCE_MS,
  isFailure,
  isWarning,
  nextRefreshMs,
  softRefreshAllowed,
  statusText,
  tooltipMarkdown,
  viewOfBalance,
  viewOfError,
} from './balanceState.ts';
import type { Balance } from '../../contract/index.ts';
import type { BalanceView } from './balanceState.ts';

export class BalanceStatusBar implements vscode.Disposable {
  readonly #services: ExtensionServices;
  readonly #item: vscode.StatusBarItem;
  readonly #subscriptions: vscode.Disposable[] = [];
  #view: BalanceView = { kind: 'loading' };
  #last: Balance | null = null;
  /** Whose balance #last is (the gateway and key it was read with): another one's is never shown. */
  #lastOwner: string | null = null;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextAt: number | null = null;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | null = null;
  #again = false;
  #disposed = false;

  constructor(services: ExtensionServices) {
    this.#services = services;
    this.#item = vscode.window.createStatusBarItem(BALANCE_ITEM_ID, vscode.StatusBarAlignment.Right, 100);
    this.#item.name = vscode.l10n.t('Model Gateway Balance');
    this.#item.command = COMMANDS.balanceMenu;
    this.#subscriptions.push(
      services.connection.onDidChange(() => {
        this.#failures = 0;
        if (this.#owner() !== this.#lastOwner && this.#view.kind !== 'loading') {
          // Another gateway or key (a profile switch, a new base URL): its balance is not the one shown.
          this.#last = null;
          this.#lastOwner = null;
          this.#set({ kind: 'loading' });
        }
        this.refresh();
      }),
      services.settings.onDidChange(() => this.#render()),
    );
    this.#render();
    void services.connection.ready.then(() => this.refreshNow());
  }

  get view(): BalanceView {
    return this.#view;
  }

  /** A refresh nobody clicked for: debounced, and held back during an error backoff. */
  refresh(): void {
    if (this.#disposed) return;
    if (this.#debounce) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      if (softRefreshAllowed(this.#failures, Date.now(), this.#nextAt)) void this.refreshNow();
    }, SOFT_REFRESH_DEBOUNCE_MS);
  }

  /** Read the balance now (coalesced with a reading already in flight). */
  refreshNow(): Promise<void> {
    if (this.#disposed) return Promise.resolve();
    if (this.#inFlight) {
      this.#again = true;
      return this.#inFlight;
    }
    this.#inFlight = this.#read().finally(() => {
      this.#inFlight = null;
      if (this.#again) {
        this.#again = false;
        void this.refreshNow();
      }
    });
    return this.#inFlight;
  }

  async #read(): Promise<void> {
    const connection = this.#services.connection;
    await connection.ready;
    const client = connection.client();
    if (!client) {
      this.#set({ kind: 'unconfigured', missing: connection.state.missing });
      return;
    }
    if (this.#view.kind === 'unconfigured') this.#set({ kind: 'loading' });
    const owner = this.#owner();
    try {
      const balance = await client.balance();
      if (connection.client() !== client) return; // configuration changed meanwhile; a new reading follows
      this.#last = balance;
      this.#lastOwner = owner;
      this.#set(viewOfBalance(balance, Date.now()));
    } catch (error) {
      if (connection.client() !== client) return; // configuration changed meanwhile; a new reading follows
      this.#set(viewOfError(error, this.#last, Date.now()));
    }
  }

  /** The gateway and key a reading is for (kept in memory only, like the client's copy of the key). */
  #owner(): string {
    const connection = this.#services.connection;
    return `${connection.state.root ?? ''}\n${connection.secrets()[0] ?? ''}`;
  }

  #set(view: BalanceView): void {
    if (this.#disposed) return;
    this.#view = view;
    this.#failures = isFailure(view) ? this.#failures + 1 : 0;
    this.#render();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextAt = null;
    const delay = nextRefreshMs(this.#view, this.#services.settings.current.balanceRefreshSeconds, this.#failures);
    if (delay === null) return;
    this.#nextAt = Date.now() + delay;
    this.#timer = setTimeout(() => void this.refreshNow(), delay);
  }

  #render(): void {
    const t = vscode.l10n.t;
    const settings = this.#services.settings.current;
    this.#item.text = statusText(this.#view, t);
    const tooltip = new vscode.MarkdownString(tooltipMarkdown(this.#view, settings.baseUrl, t), true);
    this.#item.tooltip = tooltip;
    this.#item.backgroundColor = isWarning(this.#view) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#item.accessibilityInformation = { label: this.#item.text.replace(/\$\([^)]+\)\s*/g, '') };
    if (settings.showBalance) this.#item.show();
    else this.#item.hide();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#debounce) clearTimeout(this.#debounce);
    for (const s of this.#subscriptions) s.dispose();
    this.#item.dispose();
  }
}

/** The click menu of the balance item. */
async function balanceMenu(bar: BalanceStatusBar): Promise<void> {
  const t = vscode.l10n.t;
  type Item = vscode.QuickPickItem & { run: () => unknown };
  const items: Item[] = [];
  if (bar.view.kind === 'unconfigured') {
    items.push(
      { label: `$(key) ${t('Set API Key')}`, run: () => vscode.commands.executeCommand(COMMANDS.setApiKey) },
      { label: `$(link) ${t('Set Base URL')}`, run: () => vscode.commands.executeCommand(COMMANDS.setBaseUrl) },
      { label: `$(server-process) ${t('Start Local Gateway')}`, run: () => vscode.commands.executeCommand(COMMANDS.startLocalGateway) },
      { label: `$(gear) ${t('Open Settings')}`, run: () => vscode.commands.executeCommand(COMMANDS.openSettings) },
    );
  } else {
    items.push(
      { label: `$(refresh) ${t('Refresh Balance')}`, run: () => bar.refreshNow() },
      { label: `$(beaker) ${t('Run Self-Test')}`, run: () => vscode.commands.executeCommand(COMMANDS.runSelfTest) },
      { label: `$(globe) ${t('Open Console')}`, run: () => vscode.commands.executeCommand(COMMANDS.openConsole) },
      { label: `$(key) ${t('Set API Key')}`, run: () => vscode.commands.executeCommand(COMMANDS.setApiKey) },
      { label: `$(output) ${t('Show Log')}`, run: () => vscode.commands.executeCommand(COMMANDS.showLog) },
      { label: `$(graph) ${t('Show Usage')}`, run: () => vscode.commands.executeCommand(COMMANDS.showUsage) },
    );
  }
  items.push({ label: `$(server-environment) ${t('Switch Profile')}`, run: () => vscode.commands.executeCommand(COMMANDS.switchProfile) });
  const choice = await vscode.window.showQuickPick(items, { title: t('Model Gateway'), placeHolder: statusText(bar.view, t).replace(/\$\([^)]+\)\s*/g, '') });
  if (choice) await choice.run();
}

export function registerBalanceStatusBar(context: vscode.ExtensionContext, services: ExtensionServices): BalanceStatusBar {
  const bar = new BalanceStatusBar(services);
  context.subscriptions.push(
    bar,
    services.connection.onBalanceMayHaveChanged(() => bar.refresh()),
    vscode.commands.registerCommand(COMMANDS.refreshBalance, () => bar.refreshNow()),
    vscode.commands.registerCommand(COMMANDS.balanceMenu, () => balanceMenu(bar)),
  );
  return bar;
}
