/**
 * The `modelGateway.*` settings, read and sanitised in one place (no vscode import,
 * so the rules are unit-tested). settings.ts feeds it from the workspace configuration.
 */
import { DEFAULT_LANGUAGE_SWITCHES, sanitizeLanguageSwitches } from '../completions/enablement.ts';
import type { LanguageSwitches } from '../completions/enablement.ts';
import { IMAGE_SIZE } from '../images/imagePrompt.ts';
import { sanitizeModelParameters, type ModelParameters } from './modelParameters.ts';

export interface GatewaySettings {
  /** Trimmed base address as the user wrote it ('' when unset); the client applies the /v1 rule. */
  readonly baseUrl: string;
  /** Model name, trimmed ('' when unset). Names must match the console exactly (contract 1.4). */
  readonly model: string;
  readonly requestTimeoutSeconds: number;
  /** 0 turns the periodic balance refresh off. */
  readonly balanceRefreshSeconds: number;
  /** Console address override ('' = the base address root). */
  readonly consoleUrl: string;
  readonly showBalance: boolean;
  /** The model for inline code completion, trimmed ('' = inline completion off); contract 5.6: its own field, apart from the chat model. */
  readonly completionModel: string;
  /** Inline completion per language id, "*" for the rest (`modelGateway.completions.enable`). */
  readonly completionsEnable: LanguageSwitches;
  /** The user's globs of files never sent for completion, on top of the built-in secrets list. */
  readonly completionsExclude: readonly string[];
  /** Quiet time after a keystroke before a completion request is sent. */
  readonly completionsDebounceMs: number;
  /** The embedding model of @gateway /codebase's index, trimmed ('' = not set: /codebase offers the picker). */
  readonly embeddingModel: string;
  /** The image model of @gateway /image and Generate Image…, trimmed ('' = not set: they offer the picker). */
  readonly imageModel: string;
  /** The size images are asked at (WIDTHxHEIGHT or auto); a prompt may start with another. */
  readonly imageSize: string;
  /** The repository's instruction files (AGENTS.md, .github/copilot-instructions.md) go with chat, edit and commit requests. */
  readonly useInstructionFiles: boolean;
  /** The models @gateway /compare asks, in order (names trimmed, repeats dropped). */
  readonly compareModels: readonly string[];
  /** Request fields added per model ("*" for all), see modelParameters.ts. */
  readonly modelParameters: ModelParameters;
  /** A failed terminal command puts "Explain failure" in the status bar (`modelGateway.terminal.explainFailures`). */
  readonly explainTerminalFailures: boolean;
}

/** Setting names under `modelGateway.`, as contributed in package.json. */
export const SETTING_KEYS = [
  'baseUrl',
  'model',
  'requestTimeoutSeconds',
  'balanceRefreshSeconds',
  'consoleUrl',
  'showBalance',
  'completionModel',
  'completions.enable',
  'completions.exclude',
  'completions.debounceMs',
  'embeddingModel',
  'imageModel',
  'image.size',
  'useInstructionFiles',
  'compareModels',
  'modelParameters',
  'terminal.explainFailures',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const SETTINGS_SECTION = 'modelGateway';

export const DEFAULT_SETTINGS: GatewaySettings = {
  baseUrl: '',
  model: '',
  requestTimeoutSeconds: 120,
  balanceRefreshSeconds: 60,
  consoleUrl: '',
  showBalance: true,
  completionModel: '',
  completionsEnable: DEFAULT_LANGUAGE_SWITCHES,
  completionsExclude: [],
  completionsDebounceMs: 200,
  embeddingModel: '',
  imageModel: '',
  imageSize: '1024x1024',
  useInstructionFiles: true,
  compareModels: [],
  modelParameters: {},
  explainTerminalFailures: true,
};

export const LIMITS = {
  requestTimeoutSeconds: { min: 5, max: 3600 },
  balanceRefreshSeconds: { min: 10, max: 86_400 },
  completionsDebounceMs: { min: 0, max: 2000 },
} as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter((v) => v !== '') : [];
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function clampedNumber(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, Math.round(n)));
}

/** A size as the images API takes it, else the default: a wrong one would fail every image. */
function imageSize(value: unknown): string {
  const size = text(value).toLowerCase().replace('×', 'x');
  return IMAGE_SIZE.test(size) ? size : DEFAULT_SETTINGS.imageSize;
}

/** Build the settings from a reader of raw values (`key` is the name under `modelGateway.`). */
export function sanitizeSettings(read: (key: SettingKey) => unknown): GatewaySettings {
  const refresh = read('balanceRefreshSeconds');
  const refreshOff = refresh === 0 || refresh === '0';
  return {
    baseUrl: text(read('baseUrl')),
    model: text(read('model')),
    requestTimeoutSeconds: clampedNumber(read('requestTimeoutSeconds'), DEFAULT_SETTINGS.requestTimeoutSeconds, LIMITS.requestTimeoutSeconds.min, LIMITS.requestTimeoutSeconds.max),
    balanceRefreshSeconds: refreshOff
      ? 0
      : clampedNumber(refresh, DEFAULT_SETTINGS.balanceRefreshSeconds, LIMITS.balanceRefreshSeconds.min, LIMITS.balanceRefreshSeconds.max),
    consoleUrl: text(read('consoleUrl')),
    showBalance: flag(read('showBalance'), DEFAULT_SETTINGS.showBalance),
    completionModel: text(read('completionModel')),
    completionsEnable: sanitizeLanguageSwitches(read('completions.enable')),
    completionsExclude: textList(read('completions.exclude')),
    completionsDebounceMs: clampedNumber(read('completions.debounceMs'), DEFAULT_SETTINGS.completionsDebounceMs, LIMITS.completionsDebounceMs.min, LIMITS.completionsDebounceMs.max),
    embeddingModel: text(read('embeddingModel')),
    imageModel: text(read('imageModel')),
    imageSize: imageSize(read('image.size')),
    useInstructionFiles: flag(read('useInstructionFiles'), DEFAULT_SETTINGS.useInstructionFiles),
    compareModels: [...new Set(textList(read('compareModels')))],
    modelParameters: sanitizeModelParameters(read('modelParameters')),
    explainTerminalFailures: flag(read('terminal.explainFailures'), DEFAULT_SETTINGS.explainTerminalFailures),
  };
}

/** The console's address (contract 1.3: the console is served at the base address): the override, else the root. */
export function consoleAddress(settings: GatewaySettings, root: string | null): string | null {
  if (settings.consoleUrl !== '' && /^https?:\/\//i.test(settings.consoleUrl)) return settings.consoleUrl;
  return root;
}
