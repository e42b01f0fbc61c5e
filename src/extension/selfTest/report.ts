/**
 * The self-test report for people: Markdown for the editor and chat, and the plain-text
 * problem report that contract 7.4 asks users to send (tool and version, VS Code version,
 * base URL, model, complete error text, time; never the key). No vscode import.
 */
import { escapeMarkdown, explanationMarkdown } from '../errors/explain.ts';
import { redactSecrets } from '../../contract/index.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';
import type { SelfTestReport, SelfTestStep, StepOutcome } from './run.ts';


export function outcomeLabel(outcome: StepOutcome, t: Translate = english): string {
  const labels: Record<StepOutcome, string> = { passed: t('passed'), warning: t('warning'), failed: t('failed'), skipped: t('skipped') };
  return labels[outcome];
}

/** Plain words in capitals (emoji do not render in every editor font). */
function outcomeCell(step: SelfTestStep, t: Translate): string {
  return `**${outcomeLabel(step.outcome, t).toUpperCase()}**`;
}

function cell(text: string): string {
  return escapeMarkdown(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A one-line summary for notifications. */
export function reportSummary(report: SelfTestReport, t: Translate = english): string {
  if (report.firstFailure) {
    const f = report.firstFailure;
    return t('Self-test failed at step {0} ({1} {2}): {3}', f.number, f.method, f.path, f.explanation?.title ?? f.detail);
  }
  const warnings = report.steps.filter((s) => s.outcome === 'warning').length;
  return warnings ? t('Self-test passed with {0} warning(s).', warnings) : t('Self-test passed: all 3 steps OK.');
}

export function reportMarkdown(report: SelfTestReport, t: Translate = english, secrets: readonly (string | undefined)[] = []): string {
  const lines: string[] = [];
  lines.push(`# ${t('Model Gateway Self-Test')}`, '');
  lines.push(`**${report.ok ? t('Result: passed') : t('Result: failed')}** — ${escapeMarkdown(reportSummary(report, t))}`, '');
  lines.push(`- ${t('Base URL')}: \`${report.baseUrl || t('(not set)')}\``);
  lines.push(`- ${t('Model')}: \`${report.model || t('(not set)')}\``);
  lines.push(`- ${t('Time')}: ${report.startedAt}`, '');
  lines.push(`| # | ${t('Step')} | ${t('Result')} | ${t('HTTP status')} | ${t('Time')} | ${t('Request id')} |`, '|---|---|---|---|---|---|');
  for (const step of report.steps) {
    const time = step.outcome === 'skipped' ? '–' : `${step.durationMs} ms`;
    lines.push(`| ${step.number} | ${cell(step.title)} | ${outcomeCell(step, t)} | ${step.httpStatus ?? '–'} | ${time} | ${step.requestId ? `\`${step.requestId.replace(/[`|]/g, '')}\`` : '–'} |`);
  }
  lines.push('');
  for (const step of report.steps) {
    lines.push(`## ${step.number}. ${escapeMarkdown(step.title)} — ${outcomeCell(step, t)}`, '', escapeMarkdown(step.detail), '');
    if (step.explanation) lines.push(explanationMarkdown(step.explanation, t), '');
  }
  if (report.models && report.models.length) {
    const shown = report.models.slice(0, 50).map((m) => (m === report.model ? `**\`${m}\`** ${t('(configured)')}` : `\`${m}\``));
    lines.push(`## ${t('Models available to this key')} (${report.models.length})`, '', shown.join(', ') + (report.models.length > 50 ? ', …' : ''), '');
  }
  if (!report.ok) {
    lines.push('---', '', t('To ask for help, run "Copy Problem Report" and send the text: it has the base URL, model, versions, error text and time, never the key.'));
  }
  return redactSecrets(lines.join('\n'), secrets);
}

export interface ProblemReportEnvironment {
  readonly extensionName: string;
  readonly extensionVersion: string;
  /** VS Code version, with the host app when known (e.g. "1.139.1 (code-server)"). */
  readonly vscodeVersion: string;
  readonly platform?: string;
}

/** Plain text for support (contract 7.4). The key is never included: pass it in `secrets` to be sure it is scrubbed. */
export function problemReport(report: SelfTestReport, env: ProblemReportEnvironment, secrets: readonly (string | undefined)[] = [], t: Translate = english): string {
  const lines: string[] = [];
  lines.push(t('Model Gateway problem report'));
  lines.push(`${t('Tool')}: ${env.extensionName} ${env.extensionVersion}`);
  lines.push(`${t('VS Code')}: ${env.vscodeVersion}${env.platform ? ` (${env.platform})` : ''}`);
  lines.push(`${t('Base URL')}: ${report.baseUrl || t('(not set)')}`);
  lines.push(`${t('Model')}: ${report.model || t('(not set)')}${report.modelListed === false ? ` ${t('(not in the model list)')}` : ''}`);
  lines.push(`${t('Time')}: ${report.startedAt} (${t('local')}: ${new Date(report.startedAt).toString()})`);
  lines.push(`${t('Result')}: ${reportSummary(report, t)}`);
  lines.push('');
  for (const step of report.steps) {
    const facts = [outcomeLabel(step.outcome, t)];
    if (step.httpStatus !== null) facts.push(`HTTP ${step.httpStatus}`);
    if (step.outcome !== 'skipped') facts.push(`${step.durationMs} ms`);
    if (step.requestId) facts.push(`${t('request id')} ${step.requestId}`);
    lines.push(`${step.number}. ${step.method} ${step.path}: ${facts.join(', ')}`);
    lines.push(`   ${step.detail}`);
    if (step.explanation) {
      lines.push(`   ${t('Error')}: ${step.explanation.errorText}`);
      if (step.explanation.code) lines.push(`   ${t('Code')}: ${step.explanation.code}`);
      if (step.gatewayMessage && !step.explanation.errorText.includes(step.gatewayMessage)) lines.push(`   ${t('The gateway said:')} ${step.gatewayMessage}`);
      if (step.explanation.hint) lines.push(`   ${t('Hint:')} ${step.explanation.hint}`);
    }
  }
  return redactSecrets(lines.join('\n'), secrets);
}
