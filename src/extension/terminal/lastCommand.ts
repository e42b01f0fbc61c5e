/**
 * The last command of a terminal (no vscode import): what it was, where it ran, how it ended and what it printed.
 * VS Code's own `terminal_last_command` tool reads it from the terminal's buffer (reliable even for a command that
 * printed and ended within milliseconds, which the shell-integration data stream can miss); its answer is English text
 * in a fixed shape, read here.
 */

export interface LastCommand {
  readonly command: string;
  readonly cwd?: string;
  /** Undefined while it runs, or when the shell did not say. */
  readonly exitCode?: number;
  /** Plain text ('' when it printed nothing, or nothing was caught). */
  readonly output: string;
  /** Still running when asked. */
  readonly running?: boolean;
}

const LAST = 'The following is the last command run in the terminal:\n';
const RUNNING = 'The following command is currently executing in the terminal:\n';
const RAN_IN = /^It was run in the directory:\n(.*)$/m;
const RUNS_IN = /^It is running in the directory:\n(.*)$/m;
const EXITED = /^It exited with code: (-?\d+)$/m;
const OUTPUT = '\nIt has the following output:\n';

/** The tool's text as a LastCommand; null when it says there is none (or is not in the shape this knows). */
export function parseLastCommandText(text: string): LastCommand | null {
  if (text.startsWith(RUNNING)) {
    const rest = text.slice(RUNNING.length);
    const command = rest.split('\n')[0]!.trim();
    const cwd = RUNS_IN.exec(rest)?.[1]?.trim();
    return command === '' ? null : { command, output: '', running: true, ...(cwd ? { cwd } : {}) };
  }
  if (!text.startsWith(LAST)) return null;
  const at = text.indexOf(OUTPUT);
  const facts = at >= 0 ? text.slice(LAST.length, at + 1) : text.slice(LAST.length);
  const output = at >= 0 ? text.slice(at + OUTPUT.length).replace(/\s+$/, '') : '';
  const command = facts.split('\n')[0]!.trim();
  if (command === '') return null;
  const cwd = RAN_IN.exec(facts)?.[1]?.trim();
  const exit = EXITED.exec(facts)?.[1];
  return { command, output, ...(cwd ? { cwd } : {}), ...(exit === undefined ? {} : { exitCode: Number(exit) }) };
}

/** Exit codes that say the user stopped the command (Ctrl+C: 128 + SIGINT), not that it failed. */
const STOPPED_BY_USER = new Set([130]);

/** A command that failed: it ended with a code other than 0 and the user did not stop it. */
export function isFailedExit(exitCode: number | undefined): boolean {
  return exitCode !== undefined && exitCode !== 0 && !STOPPED_BY_USER.has(exitCode);
}
