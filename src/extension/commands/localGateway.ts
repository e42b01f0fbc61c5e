/**
 * "Start Local Gateway" / "Stop Local Gateway": the bundled gateway, in the extension host,
 * on 127.0.0.1 with a free port and its data in the extension's global storage. Starting
 * points the extension at it (base URL, a fresh key, model `echo` when needed) and remembers
 * the previous configuration; Stop puts that back. Deactivation stops it too.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { GatewayClient } from '../../client/index.ts';
import { startGateway } from '../../gateway/server.ts';
import type { RunningGateway } from '../../gateway/server.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { gatewayAnswers, holderAddress } from './localGatewayElsewhere.ts';

const PREVIOUS_STATE = 'modelGateway.beforeLocalGateway';
/** The address this extension last pointed the settings at, to restart after a reload. */
const LAST_URL_STATE = 'modelGateway.localGatewayUrl';
export const LOCAL_MODEL = 'echo';

interface PreviousConfiguration {
  readonly baseUrl: string;
  readonly model: string;
}

export class LocalGateway implements vscode.Disposable {
  readonly #context: vscode.ExtensionContext;
  readonly #services: ExtensionServices;
  #running: RunningGateway | undefined;
  #starting: Promise<RunningGateway> | undefined;
  #folderProblem: string | null = null;

  constructor(context: vscode.ExtensionContext, services: ExtensionServices) {
    this.#context = context;
    this.#services = services;
  }

  get running(): RunningGateway | undefined {
    return this.#running;
  }

  /** Why the data folder could not be used (the gateway then runs in memory), or null. */
  get folderProblem(): string | null {
    return this.#folderProblem;
  }

  /** Start (or return the one already running) and point the extension at it. */
  start(): Promise<RunningGateway> {
    if (this.#running) return Promise.resolve(this.#running);
    this.#starting ??= this.#start().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async #start(): Promise<RunningGateway> {
    const { settings, apiKey, log } = this.#services;
    const dataDir = join(this.#context.globalStorageUri.fsPath, 'gateway');
    const options = { port: 0, bootstrap: true, issueKey: 'vscode', log: (line: string) => log.info(`[local gateway] ${line}`) };
    let gateway: RunningGateway;
    this.#folderProblem = null;
    try {
      await mkdir(dataDir, { recursive: true });
      gateway = await startGateway({ ...options, dataDir, fallbackToMemory: true });
    } catch (error) {
      // A folder it cannot write (permissions, a read-only or full disk, a file in the way): run in memory and say so.
      const problem = folderProblem(error);
      if (problem === null) throw error;
      log.warn(`Local gateway: the data folder ${dataDir} cannot be used (${problem}); running on an in-memory store.`);
      gateway = await startGateway({ ...options, inMemory: true });
      this.#folderProblem = problem;
    }
    try {
      if (!gateway.issuedKey) throw new Error('The local gateway did not issue a key.');
      await this.#rememberPrevious();
      const issuedKey = gateway.issuedKey;
      // Key and address change as one: the client never pairs the gateway before with the local key.
      await this.#services.connection.batch(async () => {
        await apiKey.set(issuedKey);
        await settings.update('baseUrl', gateway.url);
      });
      const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.issuedKey, maxRetries: 0 });
      try {
        const served = (await client.chatModels()).map((m) => m.id);
        if (settings.current.model === '' || !served.includes(settings.current.model)) await settings.update('model', served.includes(LOCAL_MODEL) ? LOCAL_MODEL : (served[0] ?? LOCAL_MODEL));
      } finally {
        await client.close();
      }
      await this.#services.connection.reload();
    } catch (error) {
      await gateway.stop().catch(() => undefined);
      throw error;
    }
    this.#running = gateway;
    await this.#context.globalState.update(LAST_URL_STATE, gateway.url);
    log.info(`Local gateway running at ${gateway.url} on a ${gateway.storeKind} store (${dataDir}).`);
    return gateway;
  }

  /**
   * After a refused start: when another window's gateway holds the data folder and answers, point this window at it
   * (as a start would) and return its address; else undefined.
   */
  async useRunningElsewhere(error: unknown): Promise<string | undefined> {
    const url = holderAddress(error);
    if (url === null || !(await gatewayAnswers(url))) return undefined;
    const { settings, log } = this.#services;
    await this.#rememberPrevious();
    if (settings.current.baseUrl !== url) await settings.update('baseUrl', url);
    if (settings.current.model === '') await settings.update('model', LOCAL_MODEL);
    await this.#context.globalState.update(LAST_URL_STATE, url);
    await this.#services.connection.reload();
    log.info(`Local gateway: another VS Code window runs it at ${url}; this window uses it.`);
    return url;
  }

  /** Save the configuration in use before the first start, so Stop can put it back. */
  async #rememberPrevious(): Promise<void> {
    if (this.#context.globalState.get<PreviousConfiguration>(PREVIOUS_STATE)) return; // saved by an earlier start
    const current = this.#services.settings.current;
    const previous: PreviousConfiguration = { baseUrl: current.baseUrl, model: current.model };
    await this.#services.apiKey.setAside();
    await this.#context.globalState.update(PREVIOUS_STATE, previous);
  }

  /** Stop the gateway. With `restore`, put back the configuration from before the start. Returns whether one was running. */
  async stop(restore = false): Promise<boolean> {
    await this.#starting?.catch(() => undefined);
    const gateway = this.#running;
    this.#running = undefined;
    if (gateway) {
      await gateway.stop();
      this.#services.log.info(`Local gateway at ${gateway.url} stopped.`);
    }
    if (restore) {
      await this.#context.globalState.update(LAST_URL_STATE, undefined);
      await this.#restorePrevious();
    }
    return gateway !== undefined;
  }

  async #restorePrevious(): Promise<void> {
    const previous = this.#context.globalState.get<PreviousConfiguration>(PREVIOUS_STATE);
    if (!previous) return;
    const { settings, apiKey, connection } = this.#services;
    // As one change: rebuilt at each step, the client sent the local key to the restored gateway for a moment.
    await connection.batch(async () => {
      await settings.update('baseUrl', previous.baseUrl === '' ? undefined : previous.baseUrl);
      await settings.update('model', previous.model === '' ? undefined : previous.model);
      await apiKey.restoreSetAside();
    });
    await this.#context.globalState.update(PREVIOUS_STATE, undefined);
  }

  /**
   * After a reload the settings still point at the address of the gateway that ran in the last
   * session; start it again (same data folder) so they keep working.
   */
  async resumeIfConfigured(): Promise<void> {
    const lastUrl = this.#context.globalState.get<string>(LAST_URL_STATE);
    if (!lastUrl || this.#services.settings.current.baseUrl !== lastUrl) return;
    try {
      const gateway = await this.start();
      this.#services.log.info(`Local gateway restarted at ${gateway.url} (the settings pointed at the one from the last session).`);
    } catch (error) {
      // In a second window the first one's gateway holds the folder, and the shared settings already point at it.
      if (holderAddress(error) === lastUrl) this.#services.log.info(`Local gateway: another VS Code window runs it at ${lastUrl}; this window uses it.`);
      else this.#services.log.warn(`The local gateway could not be restarted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    void this.stop();
  }
}

/** The reason a data folder cannot be used, from a failed start; null for any other failure. */
function folderProblem(error: unknown): string | null {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'string' && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST'].includes(code)) return text;
  return /unable to open database file|readonly database|disk I\/O error/i.test(text) ? text : null;
}

export function registerLocalGateway(context: vscode.ExtensionContext, services: ExtensionServices): LocalGateway {
  const t = vscode.l10n.t;
  const local = new LocalGateway(context, services);
  context.subscriptions.push(
    local,
    vscode.commands.registerCommand(COMMANDS.startLocalGateway, async (): Promise<string | undefined> => {
      if (local.running) {
        void vscode.window.showInformationMessage(t('The local gateway is already running at {0}.', local.running.url));
        return local.running.url;
      }
      let gateway: RunningGateway;
      try {
        gateway = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Starting the local gateway…') }, () => local.start());
      } catch (error) {
        const elsewhere = await local.useRunningElsewhere(error).catch(() => undefined);
        if (elsewhere) {
          void vscode.window.showInformationMessage(t('The local gateway already runs in another VS Code window, at {0}; this window uses it too.', elsewhere));
          services.connection.balanceMayHaveChanged();
          return elsewhere;
        }
        await showErrorWithFixes(services, error, t('The local gateway could not start'));
        return undefined;
      }
      const selfTest = t('Run Self-Test');
      const started = t('Local gateway running at {0} with model "{1}". The extension now uses it.', gateway.url, services.settings.current.model);
      const memory = local.folderProblem
        ? t('Its data folder cannot be used ({0}), so it runs on an in-memory store: its data (keys, balance, logs) will not outlive this session.', local.folderProblem)
        : t('This VS Code has no node:sqlite, so it runs on an in-memory store: its data (keys, balance, logs) will not outlive this session.');
      const show = gateway.storeKind === 'memory' ? vscode.window.showWarningMessage(`${started} ${memory}`, selfTest) : vscode.window.showInformationMessage(started, selfTest);
      void show.then((choice) => {
        if (choice) void vscode.commands.executeCommand(COMMANDS.runSelfTest);
      });
      services.connection.balanceMayHaveChanged();
      return gateway.url;
    }),
    vscode.commands.registerCommand(COMMANDS.stopLocalGateway, async (): Promise<boolean> => {
      const url = local.running?.url;
      const wasRunning = await local.stop(true);
      void vscode.window.showInformationMessage(
        wasRunning ? t('Local gateway at {0} stopped; the previous settings are back.', url ?? '') : t('The local gateway is not running.'),
      );
      return wasRunning;
    }),
  );
  void local.resumeIfConfigured();
  return local;
}
