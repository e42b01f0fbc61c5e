/** The chat model a command uses (`modelGateway.model`), or, when none is set, the offer to pick one; null then. */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';

export async function chatModelOrPick(services: ExtensionServices, why: string): Promise<string | null> {
  const model = services.settings.current.model;
  if (model !== '') return model;
  const pick = vscode.l10n.t('Pick Model');
  if ((await vscode.window.showWarningMessage(why, pick)) === pick) await vscode.commands.executeCommand(COMMANDS.pickModel);
  return null;
}
