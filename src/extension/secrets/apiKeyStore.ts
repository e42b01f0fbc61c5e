/**
 * The API key, in VS Code's SecretStorage and nowhere else (never settings, logs or reports).
 * Pasted keys are cleaned by the client's normalizeApiKey (whitespace, quotes, "Bearer ");
 * a blank key is refused.
 */
import * as vscode from 'vscode';
import { normalizeApiKey } from '../../client/apiKey.ts';

/** SecretStorage key. */
export const API_KEY_SECRET = 'modelGateway.apiKey';
/** SecretStorage key of the user's own key while the local gateway's is in use. */
const SET_ASIDE_SECRET = 'modelGateway.apiKey.beforeLocalGateway';

export interface SetKeyResult {
  /** Something was removed from around the pasted key. */
  readonly trimmed: boolean;
  /** What was removed, in English (translate at the edge), or null. */
  readonly note: string | null;
}

export class ApiKeyStore implements vscode.Disposable {
  readonly #secrets: vscode.SecretStorage;
  readonly #emitter = new vscode.EventEmitter<void>();
  readonly #subscription: vscode.Disposable;

  /** Fires when the key is set, changed or cleared (in this window or another). */
  readonly onDidChange = this.#emitter.event;

  constructor(secrets: vscode.SecretStorage) {
    this.#secrets = secrets;
    this.#subscription = secrets.onDidChange((event) => {
      if (event.key === API_KEY_SECRET) this.#emitter.fire();
    });
  }

  async get(): Promise<string | undefined> {
    const value = await this.#secrets.get(API_KEY_SECRET);
    return value === undefined || value === '' ? undefined : value;
  }

  async has(): Promise<boolean> {
    return (await this.get()) !== undefined;
  }

  /**
   * Clean and store a pasted key. Throws the client's AuthenticationError (code
   * `missing_api_key`, `api_key_whitespace` or `invalid_api_key`) for a key that cannot be used.
   */
  async set(raw: string): Promise<SetKeyResult> {
    const { key, trimmed, note } = normalizeApiKey(raw);
    await this.#secrets.store(API_KEY_SECRET, key);
    return { trimmed, note };
  }

  async clear(): Promise<void> {
    await this.#secrets.delete(API_KEY_SECRET);
  }

  /** Keep the key in use aside (the local gateway replaces it while it runs); nothing to keep aside is a no-op. */
  async setAside(): Promise<void> {
    const key = await this.get();
    if (key !== undefined) await this.#secrets.store(SET_ASIDE_SECRET, key);
  }

  /** Put the key kept aside back (or clear the key when none was), and forget the copy. */
  async restoreSetAside(): Promise<void> {
    const key = await this.#secrets.get(SET_ASIDE_SECRET);
    if (key) await this.#secrets.store(API_KEY_SECRET, key);
    else await this.clear();
    await this.#secrets.delete(SET_ASIDE_SECRET);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#emitter.dispose();
  }
}

/** Check a pasted key without storing it: null when usable, else the reason (English). */
export function apiKeyProblem(raw: string): string | null {
  try {
    normalizeApiKey(raw);
    return null;
  } catch (error) {
    return error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : 'invalid_api_key';
  }
}
