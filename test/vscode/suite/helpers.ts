// Shared by the in-editor suite files (bundled into each): the extension's API and polling waits.
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';

export const EXTENSION_ID = 'model-gateway.model-gateway';
export const VENDOR = 'model-gateway';

export async function activate(): Promise<{ extension: vscode.Extension<ModelGatewayApi>; api: ModelGatewayApi }> {
  const extension = vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  await api.services.connection.ready;
  return { extension, api };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError instanceof Error ? ` (${lastError.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Writes `modelGateway.*` user settings (undefined removes one) and waits until the extension has read them. */
export async function setSettings(api: ModelGatewayApi, values: { baseUrl?: string | undefined; model?: string | undefined }): Promise<void> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  await waitFor('the extension to read the settings', () => {
    const current = api.services.settings.current;
    return Object.entries(values).every(([key, value]) => current[key as 'baseUrl' | 'model'] === (value ?? '')) || undefined;
  });
}

/** Stores the key through the extension's own key store and waits until its connection uses it. */
export async function setKey(api: ModelGatewayApi, key: string | undefined): Promise<void> {
  if (key === undefined) await api.services.apiKey.clear();
  else await api.services.apiKey.set(key);
  await api.services.connection.reload();
  await waitFor('the connection to pick up the key', () => api.services.connection.state.hasKey === (key !== undefined) || undefined);
}

/** Back to nothing configured: no local gateway, no settings, no key. */
export async function resetConfiguration(api: ModelGatewayApi): Promise<void> {
  await api.localGateway.stop(false);
  await setSettings(api, { baseUrl: undefined, model: undefined });
  await setKey(api, undefined);
}

/** Reads a LanguageModelChatResponse's text stream to the end. */
export async function readText(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const part of response.text) text += part;
  return text;
}
