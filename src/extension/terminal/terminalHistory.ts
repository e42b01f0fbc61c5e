/**
 * The commands run in VS Code's terminals, as shell integration reports them: each terminal's last command with its
 * exit code, directory and output (read from the moment it starts, in bounded memory), and an event when one fails.
 * The output read this way can miss what a very quick command printed (VS Code starts passing data to extensions
 * only once it has seen the command start), so lastCommand() asks VS Code's own terminal_last_command tool first.
 */
import * as vscode from 'vscode';
import { isFailedExit, parseLastCommandText, type LastCommand } from './lastCommand.ts';
import { OutputCollector } from './terminalOutput.ts';

export interface TerminalFailure {
  readonly terminal: vscode.Terminal;
  readonly command: string;
  readonly exitCode: number;
}

/** VS Code's tool that reads the active terminal's last command from its buffer (1.100 and later). */
const LAST_COMMAND_TOOL = 'terminal_last_command';

interface Running {
  readonly execution: vscode.TerminalShellExecution;
  readonly output: OutputCollector;
  /** Settles when the output stream has been read to its end. */
  readonly read: Promise<void>;
}

/** How long the end of a command waits for the last of its output to be read (the stream ends just after). */
const LAST_OUTPUT_WAIT_MS = 500;

export class TerminalHistory implements vscode.Disposable {
  readonly #last = new Map<vscode.Terminal, LastCommand>();
  /** Each terminal's command running now, with what it printed so far. */
  readonly #runningIn = new Map<vscode.Terminal, Running>();
  /** Each terminal's ended command being recorded (its last output still read): lastCommand() waits for it. */
  readonly #recording = new Map<vscode.Terminal, Promise<void>>();
  readonly #failed = new vscode.EventEmitter<TerminalFailure>();
  readonly #succeeded = new vscode.EventEmitter<vscode.Terminal>();
  readonly #subscriptions: vscode.Disposable[];
  /** A command ended with an error (not stopped by the user). */
  readonly onDidFail = this.#failed.event;
  /** A command ended well: a failure offered for that terminal is past. */
  readonly onDidSucceed = this.#succeeded.event;

  constructor() {
    this.#subscriptions = [
      vscode.window.onDidStartTerminalShellExecution((event) => this.#collect(event.terminal, event.execution)),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        const recorded = this.#ended(event);
        this.#recording.set(event.terminal, recorded);
        void recorded.finally(() => {
          if (this.#recording.get(event.terminal) === recorded) this.#recording.delete(event.terminal);
        });
      }),
      vscode.window.onDidCloseTerminal((terminal) => {
        this.#last.delete(terminal);
        this.#runningIn.delete(terminal);
        this.#recording.delete(terminal);
      }),
      this.#failed,
      this.#succeeded,
    ];
  }

  #collect(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const output = new OutputCollector();
    // read() at once: data written before it is called is not passed on.
    const stream = execution.read();
    const read = (async () => {
      try {
        for await (const data of stream) output.push(data);
      } catch {
        // The terminal went away mid-command: what was read is kept.
      }
    })();
    this.#runningIn.set(terminal, { execution, output, read });
  }

  async #ended(event: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const running = this.#runningIn.get(event.terminal);
    const mine = running?.execution === event.execution ? running : undefined;
    if (mine) {
      this.#runningIn.delete(event.terminal);
      // The last chunks may still be on their way through the stream when the end is told.
      await Promise.race([mine.read, new Promise((resolve) => setTimeout(resolve, LAST_OUTPUT_WAIT_MS))]);
    }
    const output = mine?.output;
    const command = event.execution.commandLine.value.trim();
    if (command === '') return;
    this.#last.set(event.terminal, {
      command,
      output: output?.text() ?? '',
      ...(event.execution.cwd ? { cwd: event.execution.cwd.fsPath } : {}),
      ...(event.exitCode === undefined ? {} : { exitCode: event.exitCode }),
    });
    if (isFailedExit(event.exitCode)) this.#failed.fire({ terminal: event.terminal, command, exitCode: event.exitCode! });
    else if (event.exitCode === 0) this.#succeeded.fire(event.terminal);
  }

  /**
   * The last command of `terminal` (the active one by default): from VS Code's buffer through its tool when it has
   * it and the terminal is the active one, else as shell integration reported it; null when none ran.
   */
  async lastCommand(terminal: vscode.Terminal | undefined = vscode.window.activeTerminal): Promise<LastCommand | null> {
    if (!terminal) return null;
    await this.#recording.get(terminal);
    const recorded = this.#last.get(terminal) ?? null;
    if (terminal !== vscode.window.activeTerminal || !vscode.lm.tools.some((tool) => tool.name === LAST_COMMAND_TOOL)) return recorded;
    let fromBuffer: LastCommand | null = null;
    try {
      const result = await vscode.lm.invokeTool(LAST_COMMAND_TOOL, { input: {}, toolInvocationToken: undefined });
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      fromBuffer = parseLastCommandText(text);
    } catch {
      return recorded;
    }
    if (!fromBuffer) return recorded;
    // VS Code gives no output for a command still running (a dev server, a hung install): what it printed so far is here.
    if (fromBuffer.running) return { ...fromBuffer, output: this.#runningIn.get(terminal)?.output.text() ?? '' };
    // The buffer knows the output best; the exit code and directory shell integration gave stay when it left them out.
    if (recorded && !fromBuffer.running && recorded.command === fromBuffer.command) {
      return { ...recorded, ...fromBuffer, output: fromBuffer.output || recorded.output };
    }
    return fromBuffer;
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#last.clear();
    this.#runningIn.clear();
  }
}
