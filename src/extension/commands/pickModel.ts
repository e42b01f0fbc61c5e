/**
 * "Pick Model": a QuickPick filled from /v1/models (busy while loading), the current model
 * marked, owned_by as description; a configured model missing from the list is flagged
 * (names must match exactly, contract 1.4). The choice is written to modelGateway.model.
 */
import * as vscode from 'vscode';
import type { ModelEntry } from '../../contract/index.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { showErrorWithFixes } from '../errors/showError.ts';

type ModelItem = vscode.QuickPickItem & { model?: string };

function itemsFor(models: readonly ModelEntry[], current: string, t: typeof vscode.l10n.t): ModelItem[] {
  const items: ModelItem[] = [];
  if (current !== '' && !models.some((m) => m.id === current)) {
    items.push({
      label: `$(warning) ${current}`,
      description: t('configured, but not served by this gateway'),
      detail: t('Model names must match the console exactly. Pick one of the models below.'),
      alwaysShow: true,
    });
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  }
  for (const m of models) {
    const owner = m.owned_by ?? '';
    items.push({
      label: m.id === current ? `$(check) ${m.id}` : m.id,
      description: m.id === current ? [owner, t('current')].filter(Boolean).join(' · ') : owner,
      model: m.id,
    });
  }
  return items;
}

export function registerPickModelCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.pickModel, async (): Promise<string | undefined> => {
      const current = services.settings.current.model;
      const pick = vscode.window.createQuickPick<ModelItem>();
      pick.title = t('Model Gateway: Pick Model');
      pick.placeholder = t('Loading models from {0}…', services.settings.current.baseUrl || t('the gateway'));
      pick.busy = true;
      pick.matchOnDescription = true;
      pick.show();
      const controller = new AbortController();
      const chosen = new Promise<string | undefined>((resolve) => {
        pick.onDidAccept(() => {
          const model = pick.selectedItems[0]?.model;
          if (model === undefined) return; // the warning item: keep the picker open
          resolve(model);
          pick.hide();
        });
        pick.onDidHide(() => {
          controller.abort();
          resolve(undefined);
          pick.dispose();
        });
      });
      try {
        const client = await services.connection.require();
        const models = await client.chatModels({ signal: controller.signal });
        pick.items = itemsFor(models, current, t);
        pick.activeItems = pick.items.filter((i) => i.model === current);
        pick.placeholder = models.length ? t('{0} models available. Current: {1}', models.length, current || t('none')) : t('The gateway lists no models for this key.');
        pick.busy = false;
      } catch (error) {
        pick.hide();
        if (!controller.signal.aborted) await showErrorWithFixes(services, error, t('Could not list models'));
        return undefined;
      }
      const model = await chosen;
      if (model === undefined) return undefined;
      await services.settings.update('model', model);
      void vscode.window.showInformationMessage(t('Model set to {0}.', model));
      return model;
    }),
  );
}
