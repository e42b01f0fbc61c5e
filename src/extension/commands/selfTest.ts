/**
 * "Run Self-Test" (contract 7.4) with progress per step, the report rendered in the Markdown preview, and a
 * notification with "Copy Problem Report" and the fix buttons. "Copy Problem Report" puts the
 * 7.4 problem report on the clipboard (never the key). Both return values for the editor tests.
 */
import * as vscode from 'vscode';
import { problemEnvironment } from '../connection/environment.ts';
import { COMMANDS } from '../ids.ts';
import { problemReport, reportMarkdown, reportSummary } from '../selfTest/report.ts';
import { runSelfTest } from '../selfTest/run.ts';
import type { SelfTestReport } from '../selfTest/run.ts';
import type { ExtensionServices } from '../services.ts';
import { runFix } from '../errors/showError.ts';
import { REPORT_SCHEME, ReportDocuments } from './reportDocument.ts';

export function registerSelfTestCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  const documents = new ReportDocuments(services.log);
  let last: { report: SelfTestReport; key: string | undefined } | null = null;

  const run = async (): Promise<SelfTestReport | undefined> => {
    await services.connection.ready;
    const config = await services.connection.selfTestConfig();
    const key = config.apiKey;
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Model Gateway: Self-Test'), cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        try {
          return await runSelfTest(
            config,
            {
              t,
              signal: controller.signal,
              onStep: (step) => {
                if (!step.done) progress.report({ message: t('Step {0} of 3: {1}', step.number, step.title) });
                else progress.report({ increment: 100 / 3 });
              },
            },
          );
        } finally {
          cancel.dispose();
        }
      },
    );
    last = { report, key };
    services.connection.balanceMayHaveChanged(); // the chat step cost something
    const summary = reportSummary(report, t);
    services.log.info(`Self-test: ${summary}`);
    await documents.show(reportMarkdown(report, t, [key]));

    const copy = t('Copy Problem Report');
    if (report.ok) {
      void vscode.window.showInformationMessage(summary);
    } else {
      const fixes = report.firstFailure?.explanation?.fixes.filter((f) => f.command !== COMMANDS.runSelfTest) ?? [];
      void vscode.window.showErrorMessage(summary, copy, ...fixes.map((f) => f.label)).then((choice) => {
        if (choice === copy) void vscode.commands.executeCommand(COMMANDS.copyProblemReport);
        const fix = fixes.find((f) => f.label === choice);
        if (fix) void runFix(fix);
      });
    }
    return report;
  };

  context.subscriptions.push(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, documents),
    vscode.commands.registerCommand(COMMANDS.runSelfTest, run),
    vscode.commands.registerCommand(COMMANDS.copyProblemReport, async (): Promise<string | undefined> => {
      if (!last) await run();
      if (!last) return undefined;
      const text = problemReport(last.report, problemEnvironment(context), [last.key, ...services.connection.secrets()], t);
      await vscode.env.clipboard.writeText(text);
      void vscode.window.showInformationMessage(t('Problem report copied to the clipboard (it never contains the API key).'));
      return text;
    }),
  );
}
