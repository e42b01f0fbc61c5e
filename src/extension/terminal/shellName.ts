/** A terminal's shell by name (bash, zsh, pwsh, ...), from what VS Code detected and the program it started (no vscode import). */
import * as path from 'node:path';

const SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ksh', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd', 'gitbash', 'nu', 'xonsh', 'wsl']);

/**
 * The shell: what VS Code detected when it is a shell (it can name the foreground program instead, even `node` in a
 * terminal that has run nothing yet), else the program's name. VS Code calls Windows PowerShell 5 "pwsh" too, but it
 * is not PowerShell 7 (it has no `&&`): the program tells them apart.
 */
export function shellName(detected: string | undefined, program: string | undefined): string {
  const name = program ? path.win32.basename(program).replace(/\.exe$/i, '') : '';
  if (detected === 'pwsh' && name.toLowerCase() === 'powershell') return 'powershell';
  if (detected && SHELLS.has(detected)) return detected;
  return name;
}
