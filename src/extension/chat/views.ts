/**
 * Markdown for @gateway's answers that are not model output: a failure with its
 * fix buttons, the model list (/models), the balance (/balance). Pure: takes
 * `t` (vscode.l10n.t in the editor, English in tests).
 */
import { formatUsd } from '../../contract/index.ts';
import type { Balance, ModelEntry } from '../../contract/index.ts';
import { escapeMarkdown, explanationMarkdown } from '../errors/explain.ts';
import type { Explanation, Fix } from '../errors/explain.ts';
import { COMMANDS } from '../ids.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';

export interface ChatButton {
  readonly title: string;
  readonly command: string;
  readonly arguments?: unknown[];
}

export interface ChatView {
  readonly markdown: string;
  readonly buttons: readonly ChatButton[];
}

/** An inline code span that survives backticks in the text. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function button(fix: Fix): ChatButton {
  return fix.args ? { title: fix.label, command: fix.command, arguments: [...fix.args] } : { title: fix.label, command: fix.command };
}

/**
 * A failure: the contract's explanation (with the request id), and one button per fix.
 * Once a request could be made, Run Self-Test and Open Console are always offered.
 */
export function failureView(explanation: Explanation, t: Translate = english): ChatView {
  const fixes: Fix[] = [...explanation.fixes];
  if (explanation.kind !== 'not_configured') {
    const extras: Fix[] = [
      { label: t('Run Self-Test'), command: COMMANDS.runSelfTest },
      { label: t('Open Console'), command: COMMANDS.openConsole },
    ];
    for (const extra of extras) if (!fixes.some((fix) => fix.command === extra.command)) fixes.push(extra);
  }
  return { markdown: explanationMarkdown(explanation, t), buttons: fixes.map(button) };
}

/** No model configured: say so, with a Pick Model button. */
export function noModelView(t: Translate = english): ChatView {
  return {
    markdown: t('No model is selected for @gateway. Pick one of the models your API key may use (setting `modelGateway.model`).'),
    buttons: [{ title: t('Pick Model'), command: COMMANDS.pickModel }],
  };
}

/** /compare without two models to compare: what it does, and the picker. */
export function compareNeedsModelsView(t: Translate = english): ChatView {
  return {
    markdown: t('`/compare` asks two or more gateway models the same question at once and shows their answers one after the other, with the time to the first token, the time in all, the tokens and the cost of each. Pick the models to compare first (setting `modelGateway.compareModels`).'),
    buttons: [{ title: t('Pick Models to Compare'), command: COMMANDS.pickCompareModels }],
  };
}

/** /models: the models this key may use, the configured one marked; a configured name missing from the list is flagged. */
export function modelsView(models: readonly ModelEntry[], current: string, t: Translate = english): ChatView {
  const ids = [...new Set(models.map((m) => m.id))].sort((a, b) => a.localeCompare(b));
  const lines: string[] = [];
  if (ids.length === 0) {
    lines.push(t('The gateway returned no models for this API key. Check the key and model permissions in the console.'));
  } else {
    lines.push(t('**{0} models** available to this API key:', ids.length), '');
    for (const id of ids) {
      const owner = models.find((m) => m.id === id)?.owned_by;
      const suffix = owner ? ` — ${escapeMarkdown(owner)}` : '';
      lines.push(id === current ? `- ${code(id)}${suffix} **${t('(current)')}**` : `- ${code(id)}${suffix}`);
    }
  }
  lines.push('');
  if (current === '') lines.push(t('No model is selected yet.'));
  else if (!ids.includes(current)) {
    lines.push(t('⚠️ The configured model `{0}` is not in this list. Model names must match the console exactly.', current));
  }
  return { markdown: lines.join('\n'), buttons: [{ title: t('Pick Model'), command: COMMANDS.pickModel }] };
}


/** /balance at a gateway without billing endpoints: said plainly (the status bar says the same), with its console. */
export function noBalanceView(t: Translate = english): ChatView {
  return {
    markdown: t('This gateway does not report a balance (no billing endpoints).'),
    buttons: [{ title: t('Open Console'), command: COMMANDS.openConsole }],
  };
}

/** /balance: remaining, used and limit of this key. */
export function balanceView(balance: Balance, t: Translate = english): ChatView {
  const unknown = t('not reported');
  const lines = [
    `**${t('Balance of this API key')}**`,
    '',
    `- ${t('Remaining')}: ${balance.unlimited ? t('unlimited') : balance.remainingUsd === null ? unknown : formatUsd(balance.remainingUsd)}`,
    `- ${t('Used')}: ${balance.usedUsd === null ? unknown : formatUsd(balance.usedUsd)}`,
    `- ${t('Limit')}: ${balance.unlimited ? t('unlimited') : balance.limitUsd === null ? unknown : formatUsd(balance.limitUsd)}`,
  ];
  if (!balance.unlimited && balance.remainingUsd !== null && balance.remainingUsd <= 0) {
    lines.push('', t('⚠️ The balance is exhausted: requests will be refused (403) until the account is topped up.'));
  }
  return { markdown: lines.join('\n'), buttons: [{ title: t('Open Console'), command: COMMANDS.openConsole }] };
}
