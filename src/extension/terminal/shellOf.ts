/** The shell of a terminal, as the model should be told it (bash, zsh, pwsh, ...). */
import * as path from 'node:path';
import * as vscode from 'vscode';

const SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ksh', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd', 'gitbash', 'nu', 'xonsh', 'wsl']);

/**
 * The terminal's shell: what VS Code detected when it is a shell (it can name the foreground program instead, even
 * `node` in a terminal that has run nothing yet), else the program the terminal was started with, else the default.
 */
export function shellOf(terminal: vscode.Terminal | undefined): string {
  const detected = terminal?.state.shell;
  if (detected && SHELLS.has(detected)) return detected;
  const options = terminal?.creationOptions;
  const started = options && 'shellPath' in options ? options.shellPath : undefined;
  const program = typeof started === 'string' ? started : vscode.env.shell;
  return program ? path.basename(program).replace(/\.exe$/i, '') : '';
}
