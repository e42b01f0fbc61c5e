/**
 * What the quick fix asks the model: the problems the editor reports on the lines to fix, in its words, with
 * their source and code (for example "ts(2322)"). Pure.
 */

export interface ReportedProblem {
  readonly message: string;
  readonly source?: string | undefined;
  readonly code?: string | number | { readonly value: string | number } | undefined;
  /** 0-based line. */
  readonly line: number;
}

function label(problem: ReportedProblem): string {
  const code = typeof problem.code === 'object' ? problem.code.value : problem.code;
  const from = [problem.source, code === undefined ? undefined : `(${code})`].filter(Boolean).join('');
  return `line ${problem.line + 1}${from ? `, ${from}` : ''}: ${problem.message.trim()}`;
}

export function fixInstruction(problems: readonly ReportedProblem[]): string {
  const said = problems.map((p) => `- ${label(p)}`).join('\n');
  return `Fix ${problems.length === 1 ? 'this problem' : 'these problems'} that the editor reports, changing as little as possible:\n${said}`;
}
