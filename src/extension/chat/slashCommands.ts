/**
 * @gateway's slash commands: /models (the models this key may use), /selftest (the
 * contract's 7.4 self-test with progress per step), /balance (remaining, used, limit).
 */
import * as vscode from 'vscode';
import { problemEnvironment } from '../connection/environment.ts';
import { explainError } from '../errors/explain.ts';
import { COMMANDS } from '../ids.ts';
import { problemReport, reportMarkdown } from '../selfTest/report.ts';
import { runSelfTest } from '../selfTest/run.ts';
import type { ExtensionServices } from '../services.ts';
import { signalFromToken } from './abort.ts';
import { showView } from './chatTurn.ts';
import { balanceView, failureView, modelsView, noBalanceView } from './views.ts';
import type { Balance } from '../../contract/index.ts';

export const SLASH_COMMANDS = ['models', 'selftest', 'balance'] as const;
export type SlashCommand = (typeof SLASH_COMMANDS)[number];

export function isSlashCommand(name: string | undefined): name is SlashCommand {
  return name !== undefined && (SLASH_COMMANDS as readonly string[]).includes(name);
}

async function selfTest(services: ExtensionServices, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<vscode.ChatResult> {
  const { t } = services;
  const config = await services.connection.selfTestConfig();
  const apiKey = config.apiKey;
  const report = await runSelfTest(
    config,
    {
      t,
      signal,
      onStep: (step) => {
        if (!step.done) stream.progress(t('Step {0} of 3: {1}', step.number, step.title));
      },
    },
  );
  stream.markdown(reportMarkdown(report, t, [apiKey]));
  const fixes = (report.firstFailure?.explanation?.fixes ?? []).filter((fix) => fix.command !== COMMANDS.runSelfTest);
  if (report.ok && (report.model === '' || report.modelListed === false)) fixes.push({ label: t('Pick Model'), command: COMMANDS.pickModel });
  for (const fix of fixes) stream.button({ title: fix.label, command: fix.command, ...(fix.args ? { arguments: [...fix.args] } : {}) });
  if (!report.ok) {
    // What contract 7.4 asks users to send, ready to copy from the chat (never the key).
    const text = problemReport(report, problemEnvironment(services.context), [apiKey, ...services.connection.secrets()], t);
    stream.markdown(`\n\n**${t('Problem report')}**\n\n\`\`\`text\n${text.replace(/```/g, "'''")}\n\`\`\`\n`);
  }
  return { metadata: { command: 'selftest', ok: report.ok } };
}

export async function runSlashCommand(
  services: ExtensionServices,
  command: SlashCommand,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { t } = services;
  const abort = signalFromToken(token);
  try {
    if (command === 'selftest') return await selfTest(services, stream, abort.signal);
    const client = await services.connection.require();
    if (command === 'models') {
      stream.progress(t('Loading the models of this API key…'));
      showView(stream, modelsView(await client.chatModels({ signal: abort.signal }), services.settings.current.model, t));
    } else {
      stream.progress(t('Loading the balance…'));
      let balance: Balance;
      try {
        balance = await client.balance({ signal: abort.signal });
      } catch (error) {
        // A 404 where the model list answers is a gateway without billing endpoints (vLLM, LiteLLM, OpenAI), not a bad address.
        if ((error as { family?: unknown }).family !== 'not_found' || !(await client.models({ signal: abort.signal }).then(() => true, () => false))) throw error;
        showView(stream, noBalanceView(t));
        return { metadata: { command } };
      }
      showView(stream, balanceView(balance, t));
      services.connection.balanceMayHaveChanged();
    }
    return { metadata: { command } };
  } catch (error) {
    if (token.isCancellationRequested) return { metadata: { command } };
    const explanation = explainError(error, t, services.connection.secrets());
    services.log.warn(`@gateway /${command} failed: ${explanation.errorText}`);
    showView(stream, failureView(explanation, t));
    return { metadata: { command, failed: true } };
  } finally {
    abort.dispose();
  }
}
