/**
 * What `@gateway /terminal` sends the chat model about a terminal command, what Write Terminal Command asks it for,
 * and the command read back out of an answer to put on the terminal's prompt (no vscode import).
 */
import type { ChatMessage } from '../../contract/index.ts';
import { fitOutput } from './terminalOutput.ts';
import { maskSecrets } from './maskSecrets.ts';
import { fenceFor } from '../chat/fence.ts';
import type { LastCommand } from './lastCommand.ts';

export interface TerminalAsk {
  /** The command, or null when no command has run in the terminal (a question about the shell alone). */
  readonly last: LastCommand | null;
  /** What the user typed after /terminal ('' for none). */
  readonly question: string;
  /** The shell's name (bash, zsh, pwsh, ...), '' when unknown. */
  readonly shell: string;
  /** The operating system (process.platform). */
  readonly platform: string;
  /** Characters of output the model may take (chat/inputBudget.ts). */
  readonly budget: number;
  /** Known secrets to mask (the API keys), besides the usual patterns. */
  readonly secrets?: readonly (string | undefined)[];
}

const SYSTEMS: Record<string, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

function systemAndShell(platform: string, shell: string): string {
  return `Their system is ${SYSTEMS[platform] ?? platform}${shell ? `, their shell ${shell}` : ''}.`;
}

export function terminalMessages(ask: TerminalAsk): ChatMessage[] {
  const where = systemAndShell(ask.platform, ask.shell);
  const system = [
    `You help a developer with commands in VS Code's integrated terminal. ${where}`,
    'Answer briefly: say what went wrong and why, pointing at the line of the output that shows it, then how to fix it.',
    'When commands fix it, give them in exactly one fenced code block, only the commands to type in this shell (no prompt, no output), then say what they do.',
    'Do not claim anything the output does not show; if it is not enough to tell, say what to run to find out.',
  ].join(' ');
  return [
    { role: 'system', content: system },
    { role: 'user', content: ask.last ? aboutCommand(ask.last, ask.question, ask.budget, ask.secrets ?? []) : ask.question },
  ];
}

/** What Write Terminal Command asks: one command, for this shell, doing what the user described. */
export function commandMessages(ask: { readonly description: string; readonly shell: string; readonly platform: string; readonly cwd?: string | undefined }): ChatMessage[] {
  const system = [
    `You write a command for VS Code's integrated terminal. ${systemAndShell(ask.platform, ask.shell)}`,
    'Reply with the command alone in one fenced code block (steps joined so that it runs as one line), nothing else.',
    'Use the standard tools of this system; do not delete, overwrite or install anything unless asked to.',
  ].join(' ');
  const where = ask.cwd ? `\n\n(It runs in ${ask.cwd}.)` : '';
  return [{ role: 'system', content: system }, { role: 'user', content: `${ask.description.trim()}${where}` }];
}

function aboutCommand(last: LastCommand, question: string, budget: number, secrets: readonly (string | undefined)[]): string {
  const lines = [`Command: ${maskSecrets(last.command, secrets)}`];
  if (last.cwd) lines.push(`Directory: ${last.cwd}`);
  if (last.running) lines.push('It is still running.');
  else lines.push(last.exitCode === undefined ? 'Exit code: not known' : `Exit code: ${last.exitCode}`);
  const output = maskSecrets(last.output, secrets);
  if (output.trim() === '') lines.push(last.running ? '' : 'It printed nothing (or its output could not be read).');
  else lines.push('Output (the middle left out when long):', fence(fitOutput(output, budget)));
  const asked = question.trim() !== '' ? question.trim() : defaultQuestion(last);
  return `${lines.filter((line) => line !== '').join('\n')}\n\n${asked}`;
}

function defaultQuestion(last: LastCommand): string {
  if (last.running) return 'What is it doing, and is something wrong?';
  return last.exitCode !== undefined && last.exitCode !== 0 ? 'Why did it fail, and how do I fix it?' : 'What does this output say?';
}

/** The output fenced so that nothing in it can close the block. */
function fence(text: string): string {
  const marks = fenceFor(text);
  return `${marks}text\n${text}\n${marks}`;
}

const SHELL_BLOCKS = new Set(['', 'sh', 'bash', 'zsh', 'fish', 'shell', 'console', 'terminal', 'powershell', 'pwsh', 'ps1', 'ps', 'cmd', 'bat', 'batch', 'nu', 'nushell']);

/** How a shell continues a line and quotes: its line-continuation character and whether `#` starts a comment. */
type Dialect = 'posix' | 'powershell' | 'cmd';

/** The dialect of the terminal's shell, else of the block's language tag (POSIX when neither says). */
function dialectOf(shell: string, tag: string): Dialect {
  const name = (shell || tag).toLowerCase();
  if (['powershell', 'pwsh', 'ps1', 'ps'].includes(name)) return 'powershell';
  if (['cmd', 'bat', 'batch'].includes(name)) return 'cmd';
  return 'posix';
}

const CONTINUATION: Readonly<Record<Dialect, RegExp>> = { posix: /\\\s*$/, powershell: /`\s*$/, cmd: /\^\s*$/ };
/** A prompt the model may have copied in front of a command: `$ `, `% `, `> `, `PS C:\dir> `, `C:\dir> `. */
const PROMPT = /^(?:PS [^>]*> |[A-Za-z]:\\[^>]*> |[$%>] )/;
const MAX_COMMAND = 2_000;

/**
 * The commands of the answer's first shell code block, as one line to put on the prompt of `shell`'s terminal: several
 * run one after another, each only if the one before worked (`&&`; Windows PowerShell 5 has no `&&`). A block that is
 * one script rather than a list of commands (a loop, an if, a function, a here-document, a script block) cannot be
 * put on one line that way: it is not offered. Null when the answer gives no such command.
 */
export function commandToInsert(answer: string, shell = ''): string | null {
  for (const block of answer.matchAll(/^ {0,3}(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/gm)) {
    if (!SHELL_BLOCKS.has(block[2]!.toLowerCase())) continue;
    const dialect = dialectOf(shell, block[2]!);
    // Comments go first, whole lines and the ends of lines: one ending in a pipe would otherwise take the next line
    // with it, and one left in a joined line would make the rest of it a comment.
    const lines = block[3]!.split('\n')
      .map((line) => withoutComment(line.trim().replace(PROMPT, ''), dialect).trim())
      .filter((line) => line !== '' && !/^(?:rem|::)(?:\s|$)/i.test(line));
    const commands = joinContinued(lines, dialect).filter((line) => line !== '');
    if (commands.length === 0) continue;
    if (commands.length > 1 && commands.some((line) => SCRIPT_LINE.test(line) || readQuotes(line, dialect).open)) return null;
    const line = oneAfterAnother(commands, shell);
    return line.length > MAX_COMMAND ? null : line;
  }
  return null;
}

/**
 * A line that belongs to a script, not to a list of commands: it opens or closes a block (`for ... do`, `if ... then`,
 * `done`, `fi`, `esac`, `{`, `}`, `(`, `)`, a keyword as a word of its own: `ForEach-Object` is a command), starts a
 * here-document (`<<EOF`, `<<'EOF'`, `<<\EOF`; not `$((1 << 4))`), or opens or closes a PowerShell here-string.
 */
const SCRIPT_LINE = /^(?:for|while|until|if|elif|else|case|select|function|do|done|then|fi|esac|foreach|switch|try|catch|finally|begin|end|and|or)(?=\s|;|\(|\{|$)|^[{})]|^\($|[{(]$|(?<!<)<<(?!<)-?\s*(?:\\|['"])?[A-Za-z_]\w*|@["']$|^["']@/i;

const ESCAPE: Readonly<Record<Dialect, string>> = { posix: '\\', powershell: '`', cmd: '^' };

/**
 * One pass over a line as its shell reads quotes (the dialect's escape counts outside single quotes; cmd has only
 * double quotes): where an unquoted comment starts (a `#` at the start of a word; -1 for none, and cmd's comments are
 * whole lines, REM or ::), and whether a quote is left open (a string that goes on on the next line).
 */
function readQuotes(line: string, dialect: Dialect): { readonly comment: number; readonly open: boolean } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== "'" && c === ESCAPE[dialect]) i++;
    else if (quote === null && (c === '"' || (c === "'" && dialect !== 'cmd'))) quote = c;
    else if (c === quote) quote = null;
    else if (quote === null && c === '#' && dialect !== 'cmd' && (i === 0 || /\s/.test(line[i - 1]!))) return { comment: i, open: false };
  }
  return { comment: -1, open: quote !== null };
}

/** Commands run in order, each only if the one before worked, in the syntax of `shell`. */
function oneAfterAnother(commands: readonly string[], shell: string): string {
  const name = shell.toLowerCase();
  // Windows PowerShell 5.1 (VS Code's default terminal on Windows without PowerShell 7) has no `&&`: $? tells whether the last command worked.
  if (name === 'powershell') return commands.reduceRight((rest, command) => (rest === '' ? command : `${command}; if ($?) { ${rest} }`), '');
  // Nushell has no `&&` either; there a failing command stops the line by itself.
  if (name === 'nu') return commands.join('; ');
  // A command sent to the background (`cmd &`) is followed, not chained: `cmd & && next` is no command.
  return commands.reduce((line, command) => (line === '' ? command : `${line}${/[^&]&$/.test(line) ? ' ' : ' && '}${command}`), '');
}

/** The command of an answer: its first shell block, else the answer itself when it is one line (a model that left out the fence). */
export function commandFromAnswer(answer: string, shell = ''): string | null {
  const fenced = commandToInsert(answer, shell);
  if (fenced !== null) return fenced;
  const lines = answer.trim().split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1) return null;
  const line = lines[0]!.trim().replace(/^`+|`+$/g, '').replace(PROMPT, '').trim();
  return line === '' || line.length > MAX_COMMAND ? null : line;
}

/** A line without its comment (readQuotes). */
function withoutComment(line: string, dialect: Dialect): string {
  const { comment } = readQuotes(line, dialect);
  return comment >= 0 ? line.slice(0, comment) : line;
}

/** Lines ending in the dialect's continuation (`\` in POSIX shells, a backtick in PowerShell, `^` in cmd), a pipe or `&&`, joined with the next. */
function joinContinued(lines: readonly string[], dialect: Dialect): string[] {
  const out: string[] = [];
  let pending = '';
  for (const line of lines) {
    const continued = CONTINUATION[dialect].exec(line);
    if (continued) pending += `${line.slice(0, continued.index).trim()} `;
    // A pipe or && at the end of a line goes on on the next (bash and zsh read it so).
    else if (/(?:\||&&)\s*$/.test(line)) pending += `${line.trim()} `;
    else {
      out.push(pending + line.trim());
      pending = '';
    }
  }
  if (pending.trim() !== '') out.push(pending.trim());
  return out;
}
