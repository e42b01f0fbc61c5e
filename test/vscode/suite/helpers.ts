// Shared by the in-editor suite files (bundled into each): the extension's API, polling waits, and a
// gateway the suite starts itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { poll } from '../../support/poll.ts';

export const EXTENSION_ID = 'model-gateway.model-gateway';
export { LM_VENDOR as VENDOR } from '../../../src/extension/ids.ts';

export async function activate(): Promise<{ extension: vscode.Extension<ModelGatewayApi>; api: ModelGatewayApi }> {
  const extension = vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  await api.services.connection.ready;
  return { extension, api };
}

/** The harness's poll (test/editor/poll.ts), with the suite's shorter default wait. */
export function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30000): Promise<T> {
  return poll(what, probe as () => Promise<T | undefined>, timeoutMs, 50);
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

export interface SuiteGateway {
  readonly gateway: RunningGateway;
  /** The bootstrap key (account `local`, $10). */
  readonly key: string;
  stop(): Promise<void>;
}

/** The bundled gateway, started by the suite in this extension host: its public startGateway, 127.0.0.1, port 0, a temp data folder. */
export async function startSuiteGateway(): Promise<SuiteGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mg-suite-gateway-'));
  const gateway = await startGateway({ dataDir, port: 0, bootstrap: true });
  if (!gateway.bootstrapKey) throw new Error('the gateway did not bootstrap a key');
  return {
    gateway,
    key: gateway.bootstrapKey,
    stop: async () => {
      await gateway.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Mocha hooks for a describe block with a suite gateway of its own: the extension pointed at it before the block's
 * tests (and before the block's own `before`), everything reset and the gateway stopped after them.
 */
export function suiteGatewayHooks(): { readonly api: ModelGatewayApi; readonly suite: SuiteGateway } {
  const shared = {} as { api: ModelGatewayApi; suite: SuiteGateway };
  before(async () => {
    ({ api: shared.api } = await activate());
    shared.suite = await startSuiteGateway();
    await useSuiteGateway(shared.api, shared.suite);
  });
  after(async () => {
    if (shared.api) await resetConfiguration(shared.api);
    await shared.suite?.stop();
  });
  return shared;
}

/** Points the extension at a suite gateway (its address, its key, model echo) and waits until the connection uses them. */
export async function useSuiteGateway(api: ModelGatewayApi, suite: SuiteGateway): Promise<void> {
  await setSettings(api, { baseUrl: suite.gateway.url, model: 'echo' });
  await setKey(api, suite.key);
  await waitFor('the connection to be configured', () => api.services.connection.state.configured || undefined);
}

/** What @gateway showed for one request, recorded from its response stream. */
export interface GatewayAnswer {
  readonly markdown: string;
  readonly buttons: string[];
  /** The buttons whole: their commands and arguments, to run as a click would. */
  readonly commands: vscode.Command[];
  /** What it listed as references: files (instructions) and locations (code found). */
  readonly references: Array<vscode.Uri | vscode.Location>;
  /** Its links to places in files (stream.anchor), each also in the markdown as `[title]`. */
  readonly anchors: Array<{ readonly location: vscode.Location; readonly title: string }>;
  /** What the handler returned (its metadata is what VS Code keeps in the chat's history). */
  readonly result?: vscode.ChatResult | undefined;
}

/** The real participant's handler, asked `prompt` (with a slash command or not), as VS Code's chat view would ask it. */
export async function askGateway(
  api: ModelGatewayApi,
  prompt: string,
  command?: string,
  references: readonly vscode.ChatPromptReference[] = [],
  toolReferences: readonly vscode.ChatLanguageModelToolReference[] = [],
): Promise<GatewayAnswer> {
  const answer = { markdown: '', buttons: [] as string[], commands: [] as vscode.Command[], references: [] as Array<vscode.Uri | vscode.Location>, anchors: [] as GatewayAnswer['anchors'][number][] };
  const stream = {
    markdown: (value: string | vscode.MarkdownString) => void (answer.markdown += typeof value === 'string' ? value : value.value),
    progress: () => undefined,
    button: (button: vscode.Command) => {
      answer.buttons.push(button.title);
      answer.commands.push(button);
    },
    reference: (value: vscode.Uri | vscode.Location) => void answer.references.push(value),
    anchor: (value: vscode.Location, title: string) => {
      answer.anchors.push({ location: value, title });
      answer.markdown += `[${title}]`;
    },
  } as unknown as vscode.ChatResponseStream;
  const request = { prompt, command, references, toolReferences } as unknown as vscode.ChatRequest;
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await api.chatParticipant.requestHandler(request, { history: [] } as unknown as vscode.ChatContext, stream, source.token);
    return { ...answer, result: result ?? undefined };
  } finally {
    source.dispose();
  }
}
