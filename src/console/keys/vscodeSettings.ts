/**
 * The VS Code extension's settings for this gateway, as settings.json text shown beside a new key: the
 * setting names are the extension's own (src/extension/settings, package.json). The key is never one of
 * them: it goes in with the extension's "Set API Key" command, into VS Code's secret storage.
 */
export function vscodeSettings(baseUrl: string, model: string): string {
  const lines = [`  "modelGateway.baseUrl": ${JSON.stringify(baseUrl)}`, `  "modelGateway.model": ${JSON.stringify(model)}`];
  return `{\n${lines.join(',\n')}\n}`;
}
