/**
 * Review findings kept across a window reload (no vscode import): each file's findings with a hash of the text their
 * lines refer to. On the next start a file's findings come back only if its text is still that text; a file changed
 * meanwhile (a checkout, an edit in another editor) has lines they no longer fit, so they are dropped.
 */
import { createHash } from 'node:crypto';

export interface SavedFinding {
  /** 0-based line. */
  readonly line: number;
  readonly message: string;
  /** vscode.DiagnosticSeverity (0 error ... 3 hint). */
  readonly severity: number;
  readonly source: string;
}

export interface SavedFile {
  readonly uri: string;
  /** The repository root of the review it came from (a new review of that root replaces it). */
  readonly root: string;
  readonly hash: string;
  readonly findings: readonly SavedFinding[];
}

/** What workspaceState holds under REVIEW_STATE_KEY. */
export interface SavedReviews {
  readonly version: 1;
  readonly files: readonly SavedFile[];
}

export const REVIEW_STATE_KEY = 'modelGateway.reviewFindings';
/** At most this many findings are kept: a review is a few dozen; this bounds a corrupted or hostile state. */
const MAX_FINDINGS = 2_000;

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The files of a stored value that are well formed (anything else, from an older version or a broken state, is dropped). */
export function savedFiles(value: unknown): SavedFile[] {
  const files = (value as Partial<SavedReviews> | undefined)?.version === 1 ? (value as SavedReviews).files : undefined;
  if (!Array.isArray(files)) return [];
  let budget = MAX_FINDINGS;
  const out: SavedFile[] = [];
  for (const file of files as unknown[]) {
    const f = file as Partial<SavedFile> | null;
    if (!f || typeof f.uri !== 'string' || typeof f.root !== 'string' || typeof f.hash !== 'string' || !Array.isArray(f.findings)) continue;
    const findings = (f.findings as unknown[]).filter((x): x is SavedFinding => {
      const g = x as Partial<SavedFinding> | null;
      return !!g && Number.isInteger(g.line) && g.line! >= 0 && typeof g.message === 'string' && Number.isInteger(g.severity) && g.severity! >= 0 && g.severity! <= 3 && typeof g.source === 'string';
    }).slice(0, budget);
    budget -= findings.length;
    if (findings.length > 0) out.push({ uri: f.uri, root: f.root, hash: f.hash, findings });
  }
  return out;
}

/** The saved files whose text is still the one their findings were placed on (`textOf` gives null for a file gone). */
export async function stillFitting(files: readonly SavedFile[], textOf: (uri: string) => Promise<string | null>): Promise<SavedFile[]> {
  const kept: SavedFile[] = [];
  for (const file of files) {
    const text = await textOf(file.uri);
    if (text !== null && textHash(text) === file.hash) kept.push(file);
  }
  return kept;
}
