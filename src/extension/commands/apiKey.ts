/** "Set API Key" (password input; trims and says so; refuses blank) and "Clear API Key". */
import * as vscode from 'vscode';
import { normalizeApiKey } from '../../client/index.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';

/** Validation message for a pasted key, or undefined when it can be used as is. */
function validateKey(value: string): vscode.InputBoxValidationMessage | string | undefined {
  const t = vscode.l10n.t;
  try {
    const { trimmed } = normalizeApiKey(value);
    return trimmed ? { message: t('Spaces, quotes or a "Bearer " prefix around the key will be removed.'), severity: vscode.InputBoxValidationSeverity.Info } : undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'missing_api_key') return t('The API key cannot be blank. Paste the key created in the console.');
    if (code === 'api_key_whitespace') return t('The API key has spaces or line breaks inside it. Copy it again, in one piece.');
    return t('The API key contains characters that keys never have. Copy it again from the console.');
  }
}

export function registerApiKeyCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.setApiKey, async (): Promise<boolean> => {
      const raw = await vscode.window.showInputBox({
        title: t('Model Gateway: Set API Key'),
        prompt: t("Paste the API key created in the gateway's console (tokens / API keys page). It is kept in VS Code's secure storage, never in settings."),
        placeHolder: 'sk-...',
        password: true,
        ignoreFocusOut: true,
        validateInput: validateKey,
      });
      if (raw === undefined) return false;
      let trimmed: boolean;
      try {
        ({ trimmed } = await services.apiKey.set(raw));
      } catch (error) {
        const message = validateKey(raw);
        void vscode.window.showErrorMessage(typeof message === 'string' ? message : error instanceof Error ? error.message : String(error));
        return false;
      }
      await services.connection.reload();
      services.log.info('API key saved in secure storage.');
      const message = trimmed
        ? t('API key saved. Spaces, quotes or a "Bearer " prefix around it were removed: keys must be used exactly as issued.')
        : t('API key saved in secure storage.');
      void vscode.window.showInformationMessage(message, t('Run Self-Test')).then((choice) => {
        if (choice) void vscode.commands.executeCommand(COMMANDS.runSelfTest);
      });
      return true;
    }),
    vscode.commands.registerCommand(COMMANDS.clearApiKey, async (): Promise<void> => {
      await services.apiKey.clear();
      await services.connection.reload();
      services.log.info('API key removed from secure storage.');
      void vscode.window.showInformationMessage(t('API key removed from secure storage.'));
    }),
  );
}
