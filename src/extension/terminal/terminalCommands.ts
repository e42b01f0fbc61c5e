/**
 * The terminal's commands: Write Terminal Command (writeCommand.ts); Explain Terminal Failure (the status bar's offer, the terminal's context menu, the palette)
 * asks `@gateway /terminal` in the chat about the terminal's last command; Insert into Terminal (the chat's button)
 * puts the answer's command on that terminal's prompt, not run: the user reads it and presses Enter.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { FailureStatus } from './failureStatus.ts';
import { writeTerminalCommand, type WriteCommandArguments } from './writeCommand.ts';

/** What an Insert into Terminal button carries: plain data, as chat buttons keep their arguments. */
export interface InsertTarget {
  readonly text: string;
  readonly terminalName?: string;
  readonly processId?: number | undefined;
}

export function registerTerminalCommands(context: vscode.ExtensionContext, services: ExtensionServices): FailureStatus {
  const status = new FailureStatus(services, services.terminals);
  const descriptions: string[] = [];
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand(COMMANDS.writeTerminalCommand, (arg?: WriteCommandArguments) => writeTerminalCommand(services, descriptions, arg ?? {})),
    vscode.commands.registerCommand(COMMANDS.explainTerminalFailure, async (terminal?: unknown) => {
      await activate(isTerminal(terminal) ? terminal : undefined);
      status.taken();
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /terminal', isPartialQuery: false });
    }),
    vscode.commands.registerCommand(COMMANDS.insertIntoTerminal, async (target?: InsertTarget) => {
      if (typeof target?.text !== 'string' || target.text === '') return;
      const terminal = (await findTerminal(target)) ?? vscode.window.activeTerminal ?? vscode.window.createTerminal();
      terminal.show();
      terminal.sendText(target.text, false);
    }),
  );
  return status;
}

function isTerminal(value: unknown): value is vscode.Terminal {
  return vscode.window.terminals.includes(value as vscode.Terminal);
}

/** Makes `terminal` the active one (what /terminal reads), waiting up to a second for VS Code to say so. */
async function activate(terminal: vscode.Terminal | undefined): Promise<void> {
  if (!terminal || vscode.window.activeTerminal === terminal) return;
  terminal.show(true);
  const until = Date.now() + 1_000;
  while (vscode.window.activeTerminal !== terminal && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The terminal the command was about: the same process when it is still open, else one of the same name. */
async function findTerminal(target: InsertTarget): Promise<vscode.Terminal | undefined> {
  const terminals = vscode.window.terminals;
  if (target.processId !== undefined) {
    const ids = await Promise.all(terminals.map((terminal) => terminal.processId));
    const index = ids.indexOf(target.processId);
    if (index >= 0) return terminals[index];
  }
  return terminals.find((terminal) => terminal.name === target.terminalName);
}
