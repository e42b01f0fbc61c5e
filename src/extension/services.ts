/** The one object every register* function receives. */
import type * as vscode from 'vscode';
import type { GatewayConnection } from './connection.ts';
import type { ApiKeyStore } from './secrets/apiKeyStore.ts';
import type { SettingsService } from './settings/settings.ts';
import type { Translate } from './translate.ts';

export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly settings: SettingsService;
  readonly apiKey: ApiKeyStore;
  readonly connection: GatewayConnection;
  /** "Model Gateway" log channel; everything written to it is redacted. */
  readonly log: vscode.LogOutputChannel;
  /** `vscode.l10n.t`, for handing to the pure modules (explain, self-test report). */
  readonly t: Translate;
}
