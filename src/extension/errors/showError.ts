/** Showing a failure as a notification with the contract's explanation and fix buttons. */
import * as vscode from 'vscode';
import { explainError } from './explain.ts';
import type { Explanation, Fix } from './explain.ts';
import type { ExtensionServices } from '../services.ts';

/** Run a fix button's command. */
export async function runFix(fix: Fix): Promise<void> {
  await vscode.commands.executeCommand(fix.command, ...(fix.args ?? []));
}

/** Explain `error` (translated, key scrubbed), log it, and show it with its fix buttons. */
export async function showErrorWithFixes(services: ExtensionServices, error: unknown, context?: string): Promise<Explanation> {
  const explanation = explainError(error, vscode.l10n.t, services.connection.secrets());
  services.log.warn(`${context ? `${context}: ` : ''}${explanation.title}: ${explanation.errorText}`);
  const detail = [explanation.meaning, gatewaySaid(explanation), explanation.hint]
    .filter(Boolean)
    .join(' ');
  const message = `${context ? `${context}: ` : ''}${explanation.title}. ${detail}`;
  void vscode.window.showErrorMessage(message, ...explanation.fixes.map((f) => f.label)).then((label) => {
    const fix = explanation.fixes.find((f) => f.label === label);
    if (fix) void runFix(fix);
  });
  return explanation;
}

/**
 * The gateway's words, unless the meaning already holds them (the contract's own words for the condition,
 * which the gateway sends when it has nothing to add): then only the request id, to quote to support.
 */
function gatewaySaid(explanation: Explanation): string | null {
  const said = explanation.gatewayMessage;
  if (!said) return null;
  const words = said.replace(/\s*\(request id: [^)]*\)\s*$/, '');
  if (words !== '' && explanation.meaning.includes(words)) return explanation.requestId ? `(${vscode.l10n.t('Request id')}: ${explanation.requestId})` : null;
  return `${vscode.l10n.t('The gateway said:')} ${said}`;
}
