/**
 * "Write Terminal Command…" (the terminal's context menu, the palette, bindable to a key): say what a command should
 * do, the chat model writes it for this terminal's shell and system, and it is put on the prompt of the active
 * terminal, not run: the user reads it and presses Enter. A `{ description }` argument skips the question.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import { usageLine } from '../chat/usageLine.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { givenOrAsked } from '../commands/givenOrAsked.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import type { ExtensionServices } from '../services.ts';
import { shellOf } from './shellOf.ts';
import { commandFromAnswer, commandMessages } from './terminalPrompt.ts';

export interface WriteCommandArguments {
  readonly description?: unknown;
}

export async function writeTerminalCommand(services: ExtensionServices, history: string[], arg: WriteCommandArguments): Promise<void> {
  const t = vscode.l10n.t;
  const model = await chatModelOrPick(services, t('Pick the gateway model that writes commands first.'));
  if (model === null) return;
  const description = await givenOrAsked(arg.description, history, {
    title: t('Terminal command with {0}', model),
    prompt: t('What should the command do?'),
    example: t('for example: find the files over 100 MB changed this week'),
  });
  if (description === undefined) return;
  const terminal = vscode.window.activeTerminal;
  const shell = shellOf(terminal);
  const messages = commandMessages({ description, shell, platform: process.platform, cwd: terminal?.shellIntegration?.cwd?.fsPath });

  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Writing the command with {0}…', model), cancellable: true }, async (_progress, token) => {
    const abort = signalFromToken(token);
    try {
      const client = await services.connection.require();
      const answer = await client.chat({ model, messages }, { signal: abort.signal });
      const text = answer.choices[0]?.message.content ?? '';
      const command = commandFromAnswer(typeof text === 'string' ? text : '', shell);
      if (command === null) {
        void vscode.window.showWarningMessage(t('{0} wrote no command to run: "{1}"', model, String(text).trim().slice(0, 200)));
        return;
      }
      const target = terminal ?? vscode.window.createTerminal();
      target.show();
      target.sendText(command, false);
      const by = answer.usage ? `${model}, ${usageLine(answer.usage, t)}` : model;
      vscode.window.setStatusBarMessage(t('Command written by {0}: read it, then press Enter to run it.', by), 10_000);
    } catch (error) {
      if (!token.isCancellationRequested) await showErrorWithFixes(services, error, t('Terminal command'));
    } finally {
      abort.dispose();
      services.connection.balanceMayHaveChanged();
    }
  });
}
