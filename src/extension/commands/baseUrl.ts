/** "Set Base URL": an input box checked with the client's /v1 rule (contract 1.6). */
import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../../client/index.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';

function validateBaseUrl(value: string): vscode.InputBoxValidationMessage | string | undefined {
  const t = vscode.l10n.t;
  if (value.trim() === '') return t('Enter the address of the gateway, for example https://example.com or https://example.com/v1.');
  try {
    const base = normalizeBaseUrl(value);
    return { message: t('Requests will go to {0}/… (the service root is {1}).', base.apiBase, base.root), severity: vscode.InputBoxValidationSeverity.Info };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function registerBaseUrlCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.setBaseUrl, async (): Promise<boolean> => {
      const value = await vscode.window.showInputBox({
        title: t('Model Gateway: Set Base URL'),
        prompt: t('The base address of the gateway, with or without /v1 (contract 1.6).'),
        placeHolder: 'https://example.com/v1',
        value: services.settings.current.baseUrl,
        ignoreFocusOut: true,
        validateInput: validateBaseUrl,
      });
      if (value === undefined) return false;
      await services.settings.update('baseUrl', value.trim());
      void vscode.window.showInformationMessage(t('Base URL set to {0}.', value.trim()), t('Run Self-Test')).then((choice) => {
        if (choice) void vscode.commands.executeCommand(COMMANDS.runSelfTest);
      });
      return true;
    }),
  );
}
