/**
 * The API key, in VS Code's SecretStorage and nowhere else (never settings, logs or reports).
 * Pasted keys are cleaned by the client's normalizeApiKey (whitespace, quotes, "Bearer ");
 * a blank key is refused.
 */
import * as vscode from 'vscode';
import { normalizeApiKey } from '../../client/apiKey.ts';

/** SecretStorage key of the Default profile's key (the one entry there was before profiles). */
export const API_KEY_SECRET = 'modelGateway.apiKey';
/** SecretStorage key of the user's own key while the local gateway's is in use, beside the profile's. */
const setAsideName = (secretName: string) => `${secretName}.beforeLocalGateway`;

export interface SetKeyResult {
  /** Something was removed from around the pasted key. */
  readonly trimmed: boolean;
  /** What was removed, in English (translate at the edge), or null. */
  readonly note: string | null;
}

export class ApiKeyStore implements vscode.Disposable {
  readonly #secrets: vscode.SecretStorage;
  /** The active profile's entry (profiles/profiles.ts keySecretName). */
  #name: string;
  readonly #emitter = new vscode.EventEmitter<void>();
  readonly #subscription: vscode.Disposable;

  /** Fires when the key is set, changed or cleared (in this window or another), and when another profile's key is used. */
  readonly onDidChange = this.#emitter.event;

  constructor(secrets: vscode.SecretStorage, secretName: string = API_KEY_SECRET) {
    this.#secrets = secrets;
    this.#name = secretName;
    this.#subscription = secrets.onDidChange((event) => {
      if (event.key === this.#name) this.#emitter.fire();
    });
  }

  /** The SecretStorage entry in use (the active profile's). */
  get entry(): string {
    return this.#name;
  }

  /** Use another profile's entry from now on (a profile switch). */
  use(secretName: string): void {
    if (secretName === this.#name) return;
    this.#name = secretName;
    this.#emitter.fire();
  }

  /** Delete a profile's key (the profile is removed). */
  async deleteEntry(secretName: string): Promise<void> {
    await this.#secrets.delete(secretName);
    await this.#secrets.delete(setAsideName(secretName));
  }

  async get(): Promise<string | undefined> {
    const value = await this.#secrets.get(this.#name);
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
    await this.#secrets.store(this.#name, key);
    return { trimmed, note };
  }

  async clear(): Promise<void> {
    await this.#secrets.delete(this.#name);
  }

  /** Keep the key in use aside (the local gateway replaces it while it runs); nothing to keep aside is a no-op. */
  async setAside(): Promise<void> {
    const key = await this.get();
    if (key !== undefined) await this.#secrets.store(setAsideName(this.#name), key);
  }

  /** Put the key kept aside back (or clear the key when none was), and forget the copy. */
  async restoreSetAside(): Promise<void> {
    const key = await this.#secrets.get(setAsideName(this.#name));
    if (key) await this.#secrets.store(this.#name, key);
    else await this.clear();
    await this.#secrets.delete(setAsideName(this.#name));
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
