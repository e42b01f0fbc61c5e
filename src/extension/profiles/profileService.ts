/**
 * The profiles at run time: kept in globalState, the active one mirrored in the settings and its key
 * the one ApiKeyStore reads. A switch writes the profile's base URL and models into the settings and
 * points the key store at its key; the connection rebuilds from both, and chat, the model picker, the
 * balance, the Usage view, the language-model provider and inline completions all follow it.
 */
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../secrets/apiKeyStore.ts';
import type { SettingsService } from '../settings/settings.ts';
import { PROFILES_STATE_KEY, activeProfile, keySecretName, loadProfiles, withActiveSettings } from './profiles.ts';
import type { Profile, ProfilesState } from './profiles.ts';

/** Reads the profiles (migrating the settings into a Default profile when there are none), for building the key store. */
export function readProfiles(globalState: vscode.Memento, settings: SettingsService): ProfilesState {
  return loadProfiles(globalState.get(PROFILES_STATE_KEY), settings.current);
}

export class ProfileService implements vscode.Disposable {
  readonly #globalState: vscode.Memento;
  /** Runs the settings and key changes of a switch as one change of the connection (services.ts). */
  readonly #together: (change: () => Promise<void>) => Promise<void>;
  readonly #settings: SettingsService;
  readonly #apiKey: ApiKeyStore;
  readonly #emitter = new vscode.EventEmitter<ProfilesState>();
  readonly #subscription: vscode.Disposable;
  #state: ProfilesState;
  /** While a switch writes the settings, their change events are the switch's, not the user's edits. */
  #switching = false;

  readonly onDidChange = this.#emitter.event;

  constructor(globalState: vscode.Memento, settings: SettingsService, apiKey: ApiKeyStore, initial: ProfilesState, together: (change: () => Promise<void>) => Promise<void> = (change) => change()) {
    this.#together = together;
    this.#globalState = globalState;
    this.#settings = settings;
    this.#apiKey = apiKey;
    this.#state = initial;
    // First activation with profiles: the settings as they are become Default, stored at once.
    if (globalState.get(PROFILES_STATE_KEY) === undefined) void this.#save(initial);
    this.#subscription = settings.onDidChange((current) => {
      if (this.#switching || this.#followOtherWindow()) return;
      void this.#save(withActiveSettings(this.#state, current));
    });
  }

  get state(): ProfilesState {
    return this.#state;
  }

  get active(): Profile {
    return activeProfile(this.#state);
  }

  /** Make `name` the active profile: its fields into the settings, its key into use. */
  async switchTo(name: string): Promise<void> {
    const target = this.#state.profiles.find((p) => p.name === name);
    if (!target || name === this.#state.active) return;
    const saved = withActiveSettings(this.#state, this.#settings.current); // keep the leaving profile's latest fields
    this.#switching = true;
    try {
      await this.#save({ ...saved, active: name });
      await this.#together(async () => {
        await this.#settings.update('baseUrl', target.baseUrl === '' ? undefined : target.baseUrl);
        await this.#settings.update('model', target.model === '' ? undefined : target.model);
        await this.#settings.update('completionModel', target.completionModel === '' ? undefined : target.completionModel);
        this.#apiKey.use(keySecretName(name));
      });
    } finally {
      this.#switching = false;
    }
  }

  /**
   * Another window switched profile (windows share the global state, the settings and the keys): its settings are
   * that profile's, not an edit of ours. Use its key entry too, and save nothing into the profile we had.
   */
  #followOtherWindow(): boolean {
    const stored = readProfiles(this.#globalState, this.#settings);
    if (stored.active === this.#state.active || !stored.profiles.some((p) => p.name === stored.active)) return false;
    this.#state = stored;
    this.#apiKey.use(keySecretName(stored.active));
    this.#emitter.fire(stored);
    return true;
  }

  /** Add a profile (not switched to). */
  async add(profile: Profile): Promise<void> {
    await this.#save({ ...this.#state, profiles: [...this.#state.profiles, profile] });
  }

  /** Remove a profile that is not active, with its key. */
  async remove(name: string): Promise<void> {
    if (name === this.#state.active) throw new Error('The active profile cannot be removed.');
    await this.#save({ ...this.#state, profiles: this.#state.profiles.filter((p) => p.name !== name) });
    await this.#apiKey.deleteEntry(keySecretName(name));
  }

  async #save(state: ProfilesState): Promise<void> {
    this.#state = state;
    await this.#globalState.update(PROFILES_STATE_KEY, state);
    this.#emitter.fire(state);
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#emitter.dispose();
  }
}
