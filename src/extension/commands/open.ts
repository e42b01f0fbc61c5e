/** The commands that open something: "Open Console" (the gateway's web console, contract 1.3), "Show Log", "Open Settings". */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { consoleAddress } from '../settings/values.ts';

export function registerOpenCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.openConsole, async (): Promise<string | undefined> => {
      const address = consoleAddress(services.settings.current, services.connection.state.root);
      if (!address) {
        const choice = await vscode.window.showWarningMessage(t('No base URL is set, so there is no console to open.'), t('Set Base URL'));
        if (choice) await vscode.commands.executeCommand(COMMANDS.setBaseUrl);
        return undefined;
      }
      await vscode.env.openExternal(vscode.Uri.parse(address));
      return address;
    }),
    vscode.commands.registerCommand(COMMANDS.showLog, () => services.log.show(true)),
    vscode.commands.registerCommand(COMMANDS.openSettings, (setting?: string) =>
      vscode.commands.executeCommand('workbench.action.openSettings', typeof setting === 'string' ? setting : '@ext:model-gateway.model-gateway'),
    ),
  );
}
