/**
 * The extension's connection to the gateway: a GatewayClient built from the settings, the
 * key in SecretStorage and VS Code's proxy settings, rebuilt whenever any of them changes.
 */
import * as vscode from 'vscode';
import { GatewayClient, normalizeBaseUrl, type BodyEndpoint } from '../../client/index.ts';
import { parametersFor } from '../settings/modelParameters.ts';
import { logRequest } from '../log/requestLog.ts';
import { NotConfiguredError } from '../errors/notConfigured.ts';
import type { MissingPart } from '../errors/notConfigured.ts';
import type { ApiKeyStore } from '../secrets/apiKeyStore.ts';
import type { SettingsService } from '../settings/settings.ts';
import type { SelfTestConfig } from '../selfTest/run.ts';

export interface ConnectionState {
  /** The base URL as configured ('' when unset). */
  readonly baseUrl: string;
  /** Root of the service (for /api/status and the console), or null when the base URL is unusable. */
  readonly root: string | null;
  readonly hasKey: boolean;
  readonly missing: readonly MissingPart[];
  /** Why the configured base URL cannot be used, in the client's words. */
  readonly baseUrlProblem: string | null;
  readonly configured: boolean;
}

/** VS Code's proxy settings, in the client's form. */
export function proxySettings(): { proxy?: string; noProxy?: string } {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy')?.trim();
  const noProxyValue = http.get<unknown>('noProxy');
  const noProxy = Array.isArray(noProxyValue) ? noProxyValue.filter((v) => typeof v === 'string').join(',') : typeof noProxyValue === 'string' ? noProxyValue : '';
  return { ...(proxy ? { proxy } : {}), ...(noProxy.trim() ? { noProxy: noProxy.trim() } : {}) };
}

export class GatewayConnection implements vscode.Disposable {
  readonly #settings: SettingsService;
  readonly #apiKey: ApiKeyStore;
  readonly #log: vscode.LogOutputChannel;
  readonly #userAgent: string;
  readonly #emitter = new vscode.EventEmitter<ConnectionState>();
  readonly #subscriptions: vscode.Disposable[] = [];
  #key: string | undefined;
  /** The SecretStorage entry #key was read from: after a profile switch, until the new key is read, there is no key. */
  #keyEntry: string | undefined;
  #client: GatewayClient | undefined;
  #state: ConnectionState;
  #keyLoads = 0;
  /** Changes held (a profile switch under way) and whether one came meanwhile. */
  #holds = 0;
  #changedWhileHeld = false;

  /** Fires after the client was rebuilt (settings, key or proxy changed). */
  readonly onDidChange = this.#emitter.event;
  readonly #balanceTouched = new vscode.EventEmitter<void>();
  /** Fires after a request that may have changed the balance (a chat, a self-test): the status bar refreshes. */
  readonly onBalanceMayHaveChanged = this.#balanceTouched.event;
  /** Settles once the key has been read from SecretStorage the first time. */
  readonly ready: Promise<void>;

  constructor(settings: SettingsService, apiKey: ApiKeyStore, log: vscode.LogOutputChannel, userAgent: string) {
    this.#settings = settings;
    this.#apiKey = apiKey;
    this.#log = log;
    this.#userAgent = userAgent;
    this.#state = this.#rebuild();
    this.#subscriptions.push(
      settings.onDidChange(() => this.#changed()),
      apiKey.onDidChange(() => void this.#loadKey()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('http.proxy') || event.affectsConfiguration('http.noProxy')) this.#changed();
      }),
    );
    this.ready = this.#loadKey();
  }

  /** Say that a request may have changed the balance (whoever shows it refreshes). */
  balanceMayHaveChanged(): void {
    this.#balanceTouched.fire();
  }

  /** The key in use, only so that logs and reports can scrub it. */
  secrets(): readonly string[] {
    return this.#key ? [this.#key] : [];
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The client, or undefined while the base URL or key is missing. */
  client(): GatewayClient | undefined {
    return this.#client;
  }

  /** The client; rejects with NotConfiguredError saying what is missing and which command fixes it. */
  async require(): Promise<GatewayClient> {
    await this.ready;
    if (this.#client) return this.#client;
    throw new NotConfiguredError(this.#state.missing, this.#state.baseUrlProblem);
  }

  /**
   * What the self-test runs with: the settings and key as stored right now (not the client's, which may be
   * missing while something is unset: the self-test diagnoses exactly that), the client's other options.
   */
  async selfTestConfig(): Promise<SelfTestConfig> {
    const settings = this.#settings.current;
    return { ...this.#clientOptions(await this.#apiKey.get()), baseUrl: settings.baseUrl, model: settings.model };
  }

  #clientOptions(apiKey: string | undefined) {
    return {
      apiKey,
      timeoutMs: this.#settings.current.requestTimeoutSeconds * 1000,
      userAgent: this.#userAgent,
      ...proxySettings(),
      onResponse: (record: Parameters<typeof logRequest>[1]) => logRequest(this.#log, record),
      // Read at each request: a change to the setting applies at once, with no new client.
      // An image request gets the model's own entry only: "*" holds chat fields (temperature) image APIs refuse.
      bodyDefaults: (model: string, endpoint: BodyEndpoint) => parametersFor(this.#settings.current.modelParameters, model, { everyModel: endpoint !== 'image' }),
    };
  }

  /**
   * Run `change` (base URL and key changing together, as a profile switch does) with the client kept as it was, then
   * rebuild it once from both. Rebuilt at each step, the client would for a moment pair the new gateway with the old
   * key, and send one profile's key to the other profile's gateway.
   */
  async batch(change: () => Promise<void>): Promise<void> {
    this.#holds++;
    try {
      await change();
      await this.#loadKey();
    } finally {
      this.#holds--;
      if (this.#holds === 0 && this.#changedWhileHeld) {
        this.#changedWhileHeld = false;
        this.#changed();
      }
    }
  }

  /** Re-read the key from SecretStorage (also done on every secret change). */
  async reload(): Promise<void> {
    await this.#loadKey();
  }

  async #loadKey(): Promise<void> {
    const load = ++this.#keyLoads;
    const entry = this.#apiKey.entry;
    let key: string | undefined;
    try {
      key = await this.#apiKey.get();
    } catch (error) {
      this.#log.error('Could not read the API key from SecretStorage:', error instanceof Error ? error.message : String(error));
    }
    if (load !== this.#keyLoads) return; // a newer read won
    this.#key = key;
    this.#keyEntry = entry;
    this.#changed();
  }

  #changed(): void {
    if (this.#holds > 0) {
      this.#changedWhileHeld = true;
      return;
    }
    this.#state = this.#rebuild();
    this.#emitter.fire(this.#state);
  }

  #rebuild(): ConnectionState {
    const previous = this.#client;
    this.#client = undefined;
    // Closing is graceful (undici lets requests in flight finish), so a chat streaming on the
    // old client is not cut off by a settings change.
    if (previous) void Promise.resolve(previous.close()).catch(() => undefined);

    const settings = this.#settings.current;
    const missing: MissingPart[] = [];
    let root: string | null = null;
    let baseUrlProblem: string | null = null;
    if (settings.baseUrl === '') {
      missing.push('baseUrl');
    } else {
      try {
        root = normalizeBaseUrl(settings.baseUrl).root;
      } catch (error) {
        missing.push('baseUrl');
        baseUrlProblem = error instanceof Error ? error.message : String(error);
      }
    }
    // Never another profile's key with this profile's base URL (the new entry is being read).
    const key = this.#keyEntry === this.#apiKey.entry ? this.#key : undefined;
    if (!key) missing.push('apiKey');
    if (missing.length === 0) {
      this.#client = new GatewayClient({ ...this.#clientOptions(key), baseUrl: settings.baseUrl });
    }
    return { baseUrl: settings.baseUrl, root, hasKey: Boolean(key), missing, baseUrlProblem, configured: missing.length === 0 };
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
    this.#emitter.dispose();
    this.#balanceTouched.dispose();
    if (this.#client) void Promise.resolve(this.#client.close()).catch(() => undefined);
    this.#client = undefined;
  }
}
