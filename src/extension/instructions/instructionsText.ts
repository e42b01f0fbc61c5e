/**
 * The repository's instructions for AI assistants (AGENTS.md, .github/copilot-instructions.md), as the text of a
 * system message: what Copilot, Codex and Claude Code read from a repository, so a team writes its conventions once
 * and every tool follows them. Pure.
 */

export interface InstructionFile {
  /** Its path in the workspace, as the model is told it. */
  readonly label: string;
  readonly text: string;
}

/** At most this much of the files together (about 4,000 tokens): instructions are read with every request. */
export const MAX_INSTRUCTIONS_CHARS = 16_000;

const HEAD = [
  'The repository has instructions for AI assistants, written by its team. Follow them where they apply to the request.',
  'When two of them disagree, the later one (the more specific, nearer the file at hand) wins.',
].join(' ');

/** The system text for `files` (general ones first, the nearest last), or '' when none has any text. */
export function instructionsText(files: readonly InstructionFile[], max = MAX_INSTRUCTIONS_CHARS): string {
  let left = max;
  const blocks: string[] = [];
  for (const file of files) {
    const text = file.text.trim();
    if (text === '' || left <= 0) continue;
    const kept = text.length <= left ? text : `${text.slice(0, left)}\n[... the rest of this file is left out for length]`;
    left -= Math.min(text.length, left);
    blocks.push(`<instructions file="${file.label.replace(/"/g, "'")}">\n${kept}\n</instructions>`);
  }
  return blocks.length === 0 ? '' : `${HEAD}\n\n${blocks.join('\n\n')}`;
}

/** Joins system texts that apply together ('' ones left out); undefined when none is left. */
export function systemText(...parts: readonly (string | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => p !== undefined && p.trim() !== '');
  return kept.length === 0 ? undefined : kept.join('\n\n');
}
