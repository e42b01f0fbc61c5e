/**
 * Finding API keys that users put into settings.json under `modelGateway.*` (no vscode import).
 * A key there is stored in plain text (and often synced or committed); it belongs in SecretStorage.
 */

export type SettingScope = 'global' | 'workspace' | 'workspaceFolder';

/** What `WorkspaceConfiguration.inspect()` gives for one name (folder values come with their folder). */
export interface InspectedSetting {
  readonly name: string;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

export interface SecretInSettings {
  /** Setting name under `modelGateway.` */
  readonly name: string;
  /** Scopes that hold it. */
  readonly scopes: readonly SettingScope[];
  /** The value found (the first scope's), to move into SecretStorage. Never log it. */
  readonly value: string;
}

/** Names users give a key setting (besides any name matched by KEY_NAME). */
export const LIKELY_KEY_NAMES = ['apiKey', 'api_key', 'apikey', 'key', 'token', 'apiToken', 'secret', 'secretKey', 'authorization'] as const;

const KEY_NAME = /(api[-_]?key|token|secret|password|authorization|^key$)/i;
const KEY_VALUE = /^\s*(bearer\s+)?sk-[A-Za-z0-9_-]{8,}\s*$/i;

/** A value shaped like an API key (`sk-...`, optionally with "Bearer "). */
export function looksLikeApiKey(value: unknown): boolean {
  return typeof value === 'string' && KEY_VALUE.test(value);
}

function holdsKey(name: string, value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  return looksLikeApiKey(value) || KEY_NAME.test(name);
}

export function findSecretsInSettings(settings: readonly InspectedSetting[]): SecretInSettings[] {
  const found: SecretInSettings[] = [];
  for (const setting of settings) {
    const scopes: SettingScope[] = [];
    let value: string | null = null;
    const check = (scope: SettingScope, candidate: unknown) => {
      if (!holdsKey(setting.name, candidate)) return;
      scopes.push(scope);
      value ??= candidate;
    };
    check('global', setting.globalValue);
    check('workspace', setting.workspaceValue);
    check('workspaceFolder', setting.workspaceFolderValue);
    if (value !== null) found.push({ name: setting.name, scopes, value });
  }
  return found;
}
