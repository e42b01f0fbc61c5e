/** The line a /codebase answer opens with when the index was brought up to date: what was read, and its cost. Pure. */
import { formatUsd } from '../../contract/index.ts';
import type { Translate } from '../translate.ts';
import type { RefreshReport } from './codebaseIndex.ts';
import { MAX_CHUNKS, MAX_FILES } from './limits.ts';

export function indexLine(report: RefreshReport, model: string, t: Translate): string | null {
  const parts: string[] = [];
  if (report.embeddedFiles > 0) {
    const cost = report.costUsd === null ? '' : t(', {0}', formatUsd(report.costUsd));
    parts.push(t('Indexed {0} changed files with {1} ({2} tokens{3}); the index holds {4} files.', report.embeddedFiles, model, report.tokens.toLocaleString('en-US'), cost, report.files));
  }
  if (report.capped) parts.push(t('The index is full ({0} files or {1} chunks at most): some files of this workspace are left out.', MAX_FILES.toLocaleString('en-US'), MAX_CHUNKS.toLocaleString('en-US')));
  return parts.length === 0 ? null : parts.join(' ');
}
