/** Builds the services object once, at activation; every part is disposed with the extension. */
import * as vscode from 'vscode';
import { GatewayConnection } from './connection.ts';
import { userAgent } from './environment.ts';
import { createLog } from './log/requestLog.ts';
import { ApiKeyStore } from './secrets/apiKeyStore.ts';
import type { ExtensionServices } from './services.ts';
import { SettingsService } from './settings/settings.ts';

export function createServices(context: vscode.ExtensionContext): ExtensionServices {
  let connection: GatewayConnection | undefined;
  const log = createLog(() => connection?.secrets() ?? []);
  const settings = new SettingsService();
  const apiKey = new ApiKeyStore(context.secrets);
  connection = new GatewayConnection(settings, apiKey, log, userAgent(context));
  context.subscriptions.push(log, settings, apiKey, connection);
  return { context, settings, apiKey, connection, log, t: vscode.l10n.t };
}
