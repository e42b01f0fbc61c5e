/** The shell of a terminal, as the model should be told it (bash, zsh, pwsh, ...). */
import * as vscode from 'vscode';
import { shellName } from './shellName.ts';

/** The terminal's shell: what VS Code detected, the program the terminal was started with, else the default. */
export function shellOf(terminal: vscode.Terminal | undefined): string {
  const options = terminal?.creationOptions;
  const started = options && 'shellPath' in options ? options.shellPath : undefined;
  return shellName(terminal?.state.shell, typeof started === 'string' ? started : vscode.env.shell);
}
