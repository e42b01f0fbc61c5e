/**
 * What /compare says of each model after their answers: the time to the first token and in all, the tokens, and
 * the cost where the gateway tells it (usage.cost), as a line under each answer and one table under them all.
 * Pure: the words come through `t`.
 */
import { formatUsd, type Usage } from '../../contract/index.ts';
import { escapeMarkdown } from '../errors/explain.ts';
import type { Translate } from '../translate.ts';

export interface ComparedModel {
  readonly model: string;
  readonly firstTokenMs: number | null;
  readonly totalMs: number;
  readonly usage?: Usage | undefined;
  readonly failed: boolean;
}

export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function costOf(usage: Usage | undefined): string {
  const cost = usage?.['cost'];
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? formatUsd(cost) : '—';
}

/** The line under one model's answer. */
export function runLine(row: ComparedModel, t: Translate): string {
  const parts = [
    row.firstTokenMs === null ? null : t('first token after {0}', duration(row.firstTokenMs)),
    t('{0} in all', duration(row.totalMs)),
    row.usage ? t('{0} + {1} tokens', row.usage.prompt_tokens.toLocaleString('en-US'), row.usage.completion_tokens.toLocaleString('en-US')) : null,
    costOf(row.usage) === '—' ? null : costOf(row.usage),
  ];
  return parts.filter((p): p is string => p !== null).join(' · ');
}

/** The table of all of them, in the order asked. */
export function compareTable(rows: readonly ComparedModel[], t: Translate): string {
  const head = [t('Model'), t('First token'), t('In all'), t('Tokens (in + out)'), t('Cost')];
  const cells = rows.map((row) => [
    row.failed ? t('failed') : row.firstTokenMs === null ? '—' : duration(row.firstTokenMs),
    duration(row.totalMs),
    row.usage ? `${row.usage.prompt_tokens.toLocaleString('en-US')} + ${row.usage.completion_tokens.toLocaleString('en-US')}` : '—',
    costOf(row.usage),
  ]);
  const cell = (text: string) => escapeMarkdown(text).replace(/\|/g, '\\|');
  // The model's name as code (exact, as in the console); a table's pipe is escaped even there.
  const name = (model: string) => `\`${model.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
  const line = (first: string, rest: readonly string[]) => `| ${[first, ...rest.map(cell)].join(' | ')} |`;
  return [
    line(cell(head[0]!), head.slice(1)),
    `|${head.map(() => ' --- ').join('|')}|`,
    ...rows.map((row, i) => line(name(row.model), cells[i]!)),
  ].join('\n');
}
