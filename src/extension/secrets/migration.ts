/**
 * On activation (and when `modelGateway.*` settings change): if settings.json holds an API key,
 * warn and offer "Move to Secure Storage", which stores it in SecretStorage and removes it from
 * every settings scope it was in.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import { LIKELY_KEY_NAMES, findSecretsInSettings } from './inSettings.ts';
import type { InspectedSetting, SecretInSettings } from './inSettings.ts';
import type { ExtensionServices } from '../services.ts';
import { SETTINGS_SECTION } from '../settings/values.ts';

const METHODS = new Set(['get', 'has', 'inspect', 'update']);

/** Names under `modelGateway.` that hold a value anywhere, plus the usual key names. */
function candidateNames(config: vscode.WorkspaceConfiguration): string[] {
  const names = new Set<string>(LIKELY_KEY_NAMES);
  for (const name of Object.keys(config)) if (!METHODS.has(name)) names.add(name);
  return [...names];
}

interface Located extends SecretInSettings {
  readonly folders: readonly vscode.WorkspaceFolder[];
}

export function findSecrets(): Located[] {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const inspected: InspectedSetting[] = [];
  const folderHits = new Map<string, vscode.WorkspaceFolder[]>();
  for (const name of candidateNames(config)) {
    const base = config.inspect(name);
    let folderValue: unknown;
    for (const folder of folders) {
      const value = vscode.workspace.getConfiguration(SETTINGS_SECTION, folder.uri).inspect(name)?.workspaceFolderValue;
      if (value === undefined) continue;
      folderValue ??= value;
      folderHits.set(name, [...(folderHits.get(name) ?? []), folder]);
    }
    inspected.push({ name, globalValue: base?.globalValue, workspaceValue: base?.workspaceValue, workspaceFolderValue: folderValue });
  }
  return findSecretsInSettings(inspected).map((found) => ({ ...found, folders: found.scopes.includes('workspaceFolder') ? (folderHits.get(found.name) ?? []) : [] }));
}

async function removeEverywhere(found: Located): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  if (found.scopes.includes('global')) await config.update(found.name, undefined, vscode.ConfigurationTarget.Global);
  if (found.scopes.includes('workspace')) await config.update(found.name, undefined, vscode.ConfigurationTarget.Workspace);
  for (const folder of found.folders) {
    await vscode.workspace.getConfiguration(SETTINGS_SECTION, folder.uri).update(found.name, undefined, vscode.ConfigurationTarget.WorkspaceFolder);
  }
}

/** Move the first key found into SecretStorage and remove every key found from settings. Returns the names moved. */
export async function moveSecretsToStorage(services: ExtensionServices, found: readonly Located[] = findSecrets()): Promise<string[]> {
  const first = found[0];
  if (!first) return [];
  await services.apiKey.set(first.value);
  for (const entry of found) await removeEverywhere(entry);
  await services.connection.reload();
  services.log.info(`Moved the API key from settings (${found.map((f) => `modelGateway.${f.name}`).join(', ')}) to secure storage.`);
  return found.map((f) => f.name);
}

export function registerSecretsMigration(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  let prompting = false;
  /** Names the user said "not now" to in this session: not asked again until they change. */
  const declined = new Map<string, string>();
  const check = async (): Promise<void> => {
    if (prompting) return;
    const found = findSecrets();
    if (found.every((f) => declined.get(f.name) === f.value)) return;
    if (found.length === 0) return;
    prompting = true;
    try {
      const names = found.map((f) => `modelGateway.${f.name}`).join(', ');
      const move = t('Move to Secure Storage');
      const choice = await vscode.window.showWarningMessage(
        t('An API key is in your settings ({0}), stored there in plain text. Move it to VS Code\'s secure storage?', names),
        move,
      );
      if (choice === move) {
        const moved = await moveSecretsToStorage(services, found);
        declined.clear();
        void vscode.window.showInformationMessage(t('The API key was moved to secure storage and removed from settings ({0}).', moved.map((n) => `modelGateway.${n}`).join(', ')));
      } else {
        for (const f of found) declined.set(f.name, f.value);
      }
    } catch (error) {
      services.log.error(`Moving the API key to secure storage failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      prompting = false;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.moveKeyToSecretStorage, async (): Promise<string[]> => moveSecretsToStorage(services)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void check(), 1000);
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
  void check();
}
