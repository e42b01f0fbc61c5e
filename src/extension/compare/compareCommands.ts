/**
 * "Use Model for Chat" (the buttons under a comparison) and "Pick Models to Compare": the gateway's chat models with the ones compared now checked; two to four of them
 * are written to modelGateway.compareModels, in the catalogue's order, for @gateway /compare.
 */
import * as vscode from 'vscode';
import { isChatModel } from '../../contract/index.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { MAX_COMPARED } from './compareTurn.ts';

type ModelItem = vscode.QuickPickItem & { readonly model: string };

export function registerCompareCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.pickCompareModels, () => pickCompareModels(services)),
    // The buttons under a comparison: the model chosen becomes @gateway's (and the default elsewhere).
    vscode.commands.registerCommand(COMMANDS.useModel, async (model: unknown) => {
      if (typeof model !== 'string' || model.trim() === '') return;
      await services.settings.update('model', model);
      void vscode.window.showInformationMessage(vscode.l10n.t('Model set to {0}.', model));
    }),
  );
}

async function pickCompareModels(services: ExtensionServices): Promise<readonly string[] | undefined> {
  const t = vscode.l10n.t;
  let models: string[];
  try {
    const client = await services.connection.require();
    models = (await client.models()).filter(isChatModel).map((m) => m.id);
  } catch (error) {
    await showErrorWithFixes(services, error, t('Could not list models'));
    return undefined;
  }
  if (models.length < 2) {
    void vscode.window.showWarningMessage(t('The gateway lists {0} chat model(s) for this key: /compare needs two. Add a channel with another model in the console, or use a gateway that serves more.', models.length));
    return undefined;
  }
  const current = services.settings.current.compareModels;
  const items: ModelItem[] = models.map((model) => ({ label: model, model, picked: current.includes(model) }));
  const picked = await vscode.window.showQuickPick(items, {
    title: t('Model Gateway: Pick Models to Compare'),
    placeHolder: t('Check two to {0} models: @gateway /compare asks each of them the same question.', MAX_COMPARED),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.length < 2 || picked.length > MAX_COMPARED) {
    void vscode.window.showWarningMessage(t('Pick two to {0} models to compare ({1} checked); nothing was changed.', MAX_COMPARED, picked.length));
    return undefined;
  }
  const chosen = picked.map((item) => item.model);
  await services.settings.update('compareModels', chosen);
  void vscode.window.showInformationMessage(t('@gateway /compare now asks {0}.', chosen.join(', ')));
  return chosen;
}
