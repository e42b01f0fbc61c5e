/**
 * Whether inline completion runs for a language: only when a completion model is set (contract 5.6: a
 * tool that separates a chat model and a completion model takes a model name in each field), then by
 * `modelGateway.completions.enable`, an object like Copilot's `github.copilot.enable`: a language id
 * wins over "*". No vscode import.
 */

export type LanguageSwitches = Readonly<Record<string, boolean>>;

/** Prose and commit messages are off unless the user turns them on: completing sentences costs and rarely helps. */
export const DEFAULT_LANGUAGE_SWITCHES: LanguageSwitches = { '*': true, plaintext: false, markdown: false, scminput: false };

/**
 * The switches as the user wrote them, keeping only boolean entries; the defaults when there is no object.
 * A user's object replaces the defaults (as VS Code does for object settings): `{"*": true}` turns prose on too.
 */
export function sanitizeLanguageSwitches(value: unknown): LanguageSwitches {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return DEFAULT_LANGUAGE_SWITCHES;
  const out: Record<string, boolean> = {};
  for (const [key, on] of Object.entries(value)) if (typeof on === 'boolean' && key.trim() !== '') out[key.trim()] = on;
  return out;
}

export function languageEnabled(languageId: string, switches: LanguageSwitches): boolean {
  if (Object.hasOwn(switches, languageId)) return switches[languageId] === true;
  return switches['*'] !== false;
}

export function completionsEnabledFor(languageId: string, completionModel: string, switches: LanguageSwitches): boolean {
  return completionModel !== '' && languageEnabled(languageId, switches);
}

/** The switches with "*" flipped (the status bar's toggle): per-language entries stay as they were. */
export function toggledSwitches(switches: LanguageSwitches): LanguageSwitches {
  return { ...switches, '*': switches['*'] === false };
}
