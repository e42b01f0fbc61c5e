/**
 * Profiles (no vscode import, unit-tested): named gateways a user switches between (a work gateway, a
 * personal one, a local one), each a base URL, a chat model and a completion model, with its key in
 * SecretStorage under the profile's name. The active profile's fields live in the ordinary settings (so
 * every part that reads settings follows a switch with no change); the others are kept in globalState.
 */
import type { GatewaySettings } from '../settings/values.ts';

export interface Profile {
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly completionModel: string;
}

export interface ProfilesState {
  readonly active: string;
  readonly profiles: readonly Profile[];
}

/** The profile the existing settings become, on first activation with profiles. */
export const DEFAULT_PROFILE = 'Default';
/** globalState key of the profiles. */
export const PROFILES_STATE_KEY = 'modelGateway.profiles';
export const MAX_PROFILE_NAME_LENGTH = 40;

/** The SecretStorage entry of a profile's key. Default keeps the entry used before profiles existed, so its key needs no moving. */
export function keySecretName(profile: string): string {
  return profile === DEFAULT_PROFILE ? 'modelGateway.apiKey' : `modelGateway.profile.${encodeURIComponent(profile)}.apiKey`;
}

/** The profile fields the settings hold. */
export function fieldsOf(settings: GatewaySettings): Omit<Profile, 'name'> {
  return { baseUrl: settings.baseUrl, model: settings.model, completionModel: settings.completionModel };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The stored profiles, sanitised; with none stored (first activation, or a damaged entry) the current
 * settings become the Default profile: nothing for the user to do.
 */
export function loadProfiles(stored: unknown, settings: GatewaySettings): ProfilesState {
  const record = typeof stored === 'object' && stored !== null ? (stored as { active?: unknown; profiles?: unknown }) : {};
  const profiles: Profile[] = [];
  for (const entry of Array.isArray(record.profiles) ? record.profiles : []) {
    const name = text((entry as { name?: unknown })?.name);
    if (name === '' || profiles.some((p) => p.name === name)) continue;
    const e = entry as Record<string, unknown>;
    profiles.push({ name, baseUrl: text(e['baseUrl']), model: text(e['model']), completionModel: text(e['completionModel']) });
  }
  if (profiles.length === 0) return { active: DEFAULT_PROFILE, profiles: [{ name: DEFAULT_PROFILE, ...fieldsOf(settings) }] };
  const active = text(record.active);
  return { active: profiles.some((p) => p.name === active) ? active : profiles[0]!.name, profiles };
}

/** The active profile follows the settings (the user edits them, picks a model, starts the local gateway). */
export function withActiveSettings(state: ProfilesState, settings: GatewaySettings): ProfilesState {
  return { ...state, profiles: state.profiles.map((p) => (p.name === state.active ? { name: p.name, ...fieldsOf(settings) } : p)) };
}

export type NameProblem = 'empty' | 'too_long' | 'taken';

/** Why a new profile name cannot be used, or null (the caller words it). */
export function profileNameProblem(raw: string, state: ProfilesState): NameProblem | null {
  const name = raw.trim();
  if (name === '') return 'empty';
  if (name.length > MAX_PROFILE_NAME_LENGTH) return 'too_long';
  if (state.profiles.some((p) => p.name.toLowerCase() === name.toLowerCase())) return 'taken';
  return null;
}

export function activeProfile(state: ProfilesState): Profile {
  return state.profiles.find((p) => p.name === state.active) ?? state.profiles[0]!;
}
