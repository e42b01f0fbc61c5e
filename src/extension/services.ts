/** The one object every register* function receives, built once at activation; every part is disposed with the extension. */
import * as vscode from 'vscode';
import { userAgent } from './connection/environment.ts';
import { GatewayConnection } from './connection/gatewayConnection.ts';
import { createLog } from './log/requestLog.ts';
import { ApiKeyStore } from './secrets/apiKeyStore.ts';
import { SettingsService } from './settings/settings.ts';
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

export function createServices(context: vscode.ExtensionContext): ExtensionServices {
  let connection: GatewayConnection | undefined;
  const log = createLog(() => connection?.secrets() ?? []);
  const settings = new SettingsService();
  const apiKey = new ApiKeyStore(context.secrets);
  connection = new GatewayConnection(settings, apiKey, log, userAgent(context));
  context.subscriptions.push(log, settings, apiKey, connection);
  return { context, settings, apiKey, connection, log, t: vscode.l10n.t };
}
