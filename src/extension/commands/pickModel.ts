/**
 * "Pick Model", "Pick Completion Model", "Pick Embedding Model" and "Pick Image Model": a QuickPick filled from /v1/models (busy while loading),
 * the current model marked, owned_by as description; a configured model missing from the list is
 * flagged (names must match exactly, contract 1.4). The choice is written to modelGateway.model, or
 * to modelGateway.completionModel (contract 5.6: the completion model is a field of its own). For
 * completion, models of kind completion come first, then chat models (answered through a chat turn). The
 * embedding model (modelGateway.embeddingModel) is what @gateway /codebase indexes the workspace with; the image model
 * (modelGateway.imageModel) what @gateway /image and Generate Image… draw with.
 */
import * as vscode from 'vscode';
import { isChatModel } from '../../contract/index.ts';
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

/** What a picker sets: the chat model or the completion model. */
interface PickTarget {
  readonly command: string;
  readonly setting: 'model' | 'completionModel' | 'embeddingModel' | 'imageModel';
  readonly title: string;
  /** The models offered, in order. */
  readonly offered: (models: readonly ModelEntry[]) => ModelEntry[];
  readonly done: (model: string) => string;
  /** The picker's line when none of the gateway's models is offered. */
  readonly none?: string;
}

/** Completion models first; then chat models, which answer through the chat fallback. Embedding and image models cannot complete code. */
export function completionCandidates(models: readonly ModelEntry[]): ModelEntry[] {
  return [...models.filter((m) => m.kind === 'completion'), ...models.filter((m) => m.kind !== 'completion' && isChatModel(m))];
}

export function registerPickModelCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  registerPicker(context, services, {
    command: COMMANDS.pickModel,
    setting: 'model',
    title: t('Model Gateway: Pick Model'),
    offered: (models) => models.filter(isChatModel),
    done: (model) => t('Model set to {0}.', model),
  });
  registerPicker(context, services, {
    command: COMMANDS.pickCompletionModel,
    setting: 'completionModel',
    title: t('Model Gateway: Pick Completion Model'),
    offered: completionCandidates,
    done: (model) => t('Completion model set to {0}.', model),
  });
  registerPicker(context, services, {
    command: COMMANDS.pickEmbeddingModel,
    setting: 'embeddingModel',
    title: t('Model Gateway: Pick Embedding Model'),
    offered: (models) => models.filter((m) => m.kind === 'embedding'),
    done: (model) => t('Embedding model set to {0}.', model),
    none: t('The gateway lists no embedding models for this key.'),
  });
  registerPicker(context, services, {
    command: COMMANDS.pickImageModel,
    setting: 'imageModel',
    title: t('Model Gateway: Pick Image Model'),
    offered: (models) => models.filter((m) => m.kind === 'image'),
    done: (model) => t('Image model set to {0}.', model),
    none: t('The gateway lists no image models for this key.'),
  });
}

function registerPicker(context: vscode.ExtensionContext, services: ExtensionServices, target: PickTarget): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(target.command, async (): Promise<string | undefined> => {
      const current = services.settings.current[target.setting];
      const pick = vscode.window.createQuickPick<ModelItem>();
      pick.title = target.title;
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
        const models = target.offered(await client.models({ signal: controller.signal }));
        pick.items = itemsFor(models, current, t);
        pick.activeItems = pick.items.filter((i) => i.model === current);
        pick.placeholder = models.length ? t('{0} models available. Current: {1}', models.length, current || t('none')) : (target.none ?? t('The gateway lists no models for this key.'));
        pick.busy = false;
      } catch (error) {
        pick.hide();
        if (!controller.signal.aborted) await showErrorWithFixes(services, error, t('Could not list models'));
        return undefined;
      }
      const model = await chosen;
      if (model === undefined) return undefined;
      await services.settings.update(target.setting, model);
      void vscode.window.showInformationMessage(target.done(model));
      return model;
    }),
  );
}
