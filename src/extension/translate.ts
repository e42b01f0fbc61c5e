/**
 * The translate function the pure (vscode-free) modules take. The editor passes
 * `vscode.l10n.t`; tests and the default use English with `{0}`-style arguments
 * filled in, exactly as `vscode.l10n.t` does when no bundle matches.
 */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
