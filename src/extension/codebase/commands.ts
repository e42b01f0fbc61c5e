/**
 * "Index Codebase for @gateway /codebase" (the index built or brought up to date ahead of a question, with
 * progress and Cancel) and "Clear Codebase Index".
 */
import * as vscode from 'vscode';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import type { RefreshReport } from './codebaseIndex.ts';
import { indexLine } from './indexLine.ts';

export function registerCodebaseCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const { t } = services;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.indexCodebase, async (): Promise<RefreshReport | undefined> => {
      const { codebase } = services;
      if (!codebase) {
        void vscode.window.showInformationMessage(t('Open a folder to index its code.'));
        return undefined;
      }
      let model = services.settings.current.embeddingModel;
      if (model === '') model = (await vscode.commands.executeCommand<string | undefined>(COMMANDS.pickEmbeddingModel)) ?? '';
      if (model === '') return undefined;
      try {
        const client = await services.connection.require();
        const report = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: t('Indexing the workspace with {0}', model), cancellable: true },
          (progress, token) => {
            let last = 0;
            return codebase.refresh(client, model, (done, total) => {
              if (total === 0) return;
              progress.report({ message: t('{0} of {1} changed files', done, total), increment: ((done - last) / total) * 100 });
              last = done;
            }, token);
          },
        );
        services.connection.balanceMayHaveChanged();
        void vscode.window.showInformationMessage(indexLine(report, model, t) ?? t('The codebase index is up to date: {0} files, {1} chunks.', report.files, report.chunks));
        return report;
      } catch (error) {
        services.connection.balanceMayHaveChanged();
        if (error instanceof vscode.CancellationError) return undefined;
        await showErrorWithFixes(services, error, t('Could not index the workspace'));
        return undefined;
      }
    }),
    vscode.commands.registerCommand(COMMANDS.clearCodebaseIndex, async () => {
      await services.codebase?.clear();
      void vscode.window.showInformationMessage(t('The codebase index of this workspace is cleared; /codebase builds it again.'));
    }),
  );
}
