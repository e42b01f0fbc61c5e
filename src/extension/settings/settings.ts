/** The one reader of `modelGateway.*` settings: sanitised values, a change event, and updates. */
import * as vscode from 'vscode';
import { SETTINGS_SECTION, sanitizeSettings } from './values.ts';
import type { GatewaySettings, SettingKey } from './values.ts';

export type { GatewaySettings, SettingKey } from './values.ts';

export class SettingsService implements vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<GatewaySettings>();
  readonly #subscription: vscode.Disposable;
  #current: GatewaySettings;

  /** Fires with the new values whenever a `modelGateway.*` setting changes. */
  readonly onDidChange = this.#emitter.event;

  constructor() {
    this.#current = SettingsService.read();
    this.#subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
      this.#current = SettingsService.read();
      this.#emitter.fire(this.#current);
    });
  }

  static read(): GatewaySettings {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    return sanitizeSettings((key) => config.get(key));
  }

  get current(): GatewaySettings {
    return this.#current;
  }

  /**
   * Write a setting. Without an explicit target, the value goes to the workspace when the
   * workspace already sets it (a global write would be shadowed), else to the user's settings.
   */
  async update(key: SettingKey, value: unknown, target?: vscode.ConfigurationTarget): Promise<void> {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    await config.update(key, value, target ?? SettingsService.targetOf(key));
    // Read now rather than wait for the event, so the caller sees its own write.
    this.#current = SettingsService.read();
  }

  static targetOf(key: SettingKey): vscode.ConfigurationTarget {
    const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect(key);
    if (inspected?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
    return vscode.ConfigurationTarget.Global;
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#emitter.dispose();
  }
}
