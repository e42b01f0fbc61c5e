/**
 * Any failure turned into what the user needs: the contract's meaning and action (7.2),
 * what the gateway said, the 7.3 troubleshooting order starting at the first thing to
 * check, and fix buttons (command ids). No vscode import: English by default, or pass
 * `vscode.l10n.t` as `t`; every English string here is a key of the l10n bundles.
 */
import { ERROR_CODES, STATUS_FAMILIES, TROUBLESHOOTING_STEPS, isErrorCode } from '../../contract/index.ts';
import type { StatusFamilyId, TroubleshootingStep } from '../../contract/index.ts';
import { isNotConfiguredError } from './notConfigured.ts';
import { COMMANDS } from '../ids.ts';
import { redactSecrets } from '../../contract/index.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';

export interface Fix {
  /** Button text (already translated). */
  readonly label: string;
  readonly command: string;
  readonly args?: readonly unknown[];
}

export interface ExplanationStep {
  readonly id: TroubleshootingStep;
  /** Position in the contract's 7.3 list (1-based). */
  readonly number: number;
  readonly text: string;
  /** The step to check first. */
  readonly first: boolean;
}

export type ExplanationKind = StatusFamilyId | 'not_configured' | 'unknown';

export interface Explanation {
  readonly kind: ExplanationKind;
  readonly title: string;
  readonly meaning: string;
  readonly action: string;
  readonly status: number | null;
  readonly code: string | null;
  /** What the gateway itself said (redacted). */
  readonly gatewayMessage: string | null;
  readonly requestId: string | null;
  /** A specific suggestion (for example which base URL form works). */
  readonly hint: string | null;
  /** The complete error text (redacted), for problem reports. */
  readonly errorText: string;
  readonly firstCheck: TroubleshootingStep;
  /** The 7.3 order, starting at firstCheck, then the other steps in the contract's order. */
  readonly steps: readonly ExplanationStep[];
  readonly fixes: readonly Fix[];
  readonly retryable: boolean;
}

/** The shape of the client's GatewayError, read structurally so explanations work across bundles. */
interface GatewayErrorLike {
  readonly family: StatusFamilyId;
  readonly status: number | null;
  readonly code: string | null;
  readonly gatewayMessage: string | null;
  readonly requestId: string | null;
  readonly condition?: string | null;
  readonly hint: string | null;
  readonly firstCheck: TroubleshootingStep;
  readonly message: string;
}

function isGatewayErrorLike(error: unknown): error is GatewayErrorLike {
  if (typeof error !== 'object' || error === null) return false;
  const family = (error as { family?: unknown }).family;
  return typeof family === 'string' && Object.hasOwn(STATUS_FAMILIES, family);
}

/** The 7.3 order starting at `first`, then the others in the contract's order. */
export function troubleshootingOrder(first: TroubleshootingStep, t: Translate = english): ExplanationStep[] {
  const all = TROUBLESHOOTING_STEPS.map((step, index) => ({ id: step.id, number: index + 1, text: t(step.text), first: step.id === first }));
  return [...all.filter((s) => s.first), ...all.filter((s) => !s.first)];
}

/** Fix buttons for the first thing to check; Run Self-Test is always offered last. */
export function fixesFor(firstCheck: TroubleshootingStep, t: Translate = english): Fix[] {
  const setKey: Fix = { label: t('Set API Key'), command: COMMANDS.setApiKey };
  const openConsole: Fix = { label: t('Open Console'), command: COMMANDS.openConsole };
  const byStep: Record<TroubleshootingStep, Fix[]> = {
    address: [{ label: t('Open Settings'), command: 'workbench.action.openSettings', args: ['modelGateway.baseUrl'] }],
    key: [setKey, openConsole],
    balance: [openConsole],
    model: [{ label: t('Pick Model'), command: COMMANDS.pickModel }],
    permission: [openConsole],
    logs: [openConsole, { label: t('Show Log'), command: COMMANDS.showLog }],
    restart: [],
  };
  return [...byStep[firstCheck], { label: t('Run Self-Test'), command: COMMANDS.runSelfTest }];
}

/**
 * The fix a failure asks for before its first check's: a timeout's action is to raise the timeout; a key that may
 * not use the model wants another model (the picker lists the key's); a disabled or expired key, another key.
 */
function conditionFixes(family: StatusFamilyId, condition: string | null, t: Translate): Fix[] {
  if (family === 'timeout') return [{ label: t('Open Timeout Setting'), command: 'workbench.action.openSettings', args: ['modelGateway.requestTimeoutSeconds'] }];
  if (condition === 'model_not_permitted') return [{ label: t('Pick Model'), command: COMMANDS.pickModel }];
  if (condition === 'key_disabled' || condition === 'key_expired') return [{ label: t('Set API Key'), command: COMMANDS.setApiKey }];
  return [];
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * Explain a failure. `secrets` are exact strings (the key) scrubbed from every text field,
 * besides anything shaped like `sk-...` or `Bearer ...`.
 */
export function explainError(error: unknown, t: Translate = english, secrets: readonly (string | undefined)[] = []): Explanation {
  const scrub = (text: string | null): string | null => (text === null ? null : redactSecrets(text, secrets));
  if (isNotConfiguredError(error)) {
    const needsAddress = error.missing.includes('baseUrl');
    const fixes: Fix[] = [];
    if (needsAddress) {
      fixes.push({ label: t('Set Base URL'), command: COMMANDS.setBaseUrl }, { label: t('Start Local Gateway'), command: COMMANDS.startLocalGateway });
    }
    if (error.missing.includes('apiKey')) fixes.push({ label: t('Set API Key'), command: COMMANDS.setApiKey });
    const firstCheck: TroubleshootingStep = needsAddress ? 'address' : 'key';
    const missing = [needsAddress ? t('the base URL') : null, error.missing.includes('apiKey') ? t('the API key') : null].filter((x): x is string => x !== null);
    return {
      kind: 'not_configured',
      title: t('Model Gateway is not configured'),
      meaning: t('Missing: {0}.', missing.join(t(' and '))),
      action: needsAddress ? t('Set the base URL of your gateway, or start the local gateway.') : t('Set the API key created in the console.'),
      status: null,
      code: error.code,
      gatewayMessage: null,
      requestId: null,
      hint: scrub(error.baseUrlProblem),
      errorText: scrub(error.message) ?? '',
      firstCheck,
      steps: troubleshootingOrder(firstCheck, t),
      fixes,
      retryable: false,
    };
  }
  if (isGatewayErrorLike(error)) {
    const spec = STATUS_FAMILIES[error.family];
    const condition = error.condition && isErrorCode(error.condition) ? error.condition : null;
    const meaning = condition ? `${t(spec.meaning)} (${t(ERROR_CODES[condition].message)})` : t(spec.meaning);
    return {
      kind: error.family,
      title: t(spec.title),
      meaning,
      action: t(spec.action),
      status: error.status,
      code: error.code,
      gatewayMessage: scrub(error.gatewayMessage),
      requestId: error.requestId,
      hint: scrub(error.hint),
      errorText: scrub(errorText(error)) ?? '',
      firstCheck: error.firstCheck,
      steps: troubleshootingOrder(error.firstCheck, t),
      fixes: [...conditionFixes(error.family, condition, t), ...fixesFor(error.firstCheck, t)],
      retryable: spec.retryable,
    };
  }
  return {
    kind: 'unknown',
    title: t('Unexpected error'),
    meaning: scrub(errorText(error)) ?? '',
    action: t('Read the Model Gateway log, then run the self-test.'),
    status: null,
    code: null,
    gatewayMessage: null,
    requestId: null,
    hint: null,
    errorText: scrub(errorText(error)) ?? '',
    firstCheck: 'logs',
    steps: troubleshootingOrder('logs', t),
    fixes: [{ label: t('Show Log'), command: COMMANDS.showLog }, { label: t('Run Self-Test'), command: COMMANDS.runSelfTest }],
    retryable: false,
  };
}

/** Text safe inside Markdown (no accidental emphasis, links or HTML). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&');
}

/** The explanation as Markdown (for chat responses, hovers and the self-test report). */
export function explanationMarkdown(explanation: Explanation, t: Translate = english): string {
  const lines: string[] = [`**${escapeMarkdown(explanation.title)}**`, '', escapeMarkdown(explanation.meaning), '', `**${t('What to do:')}** ${escapeMarkdown(explanation.action)}`];
  if (explanation.gatewayMessage) {
    lines.push('', `**${t('The gateway said:')}** ${escapeMarkdown(explanation.gatewayMessage)}`);
  }
  const facts: string[] = [];
  if (explanation.status !== null) facts.push(`${t('HTTP status')}: ${explanation.status}`);
  if (explanation.code) facts.push(`${t('code')}: \`${explanation.code.replace(/`/g, '')}\``);
  if (explanation.requestId) facts.push(`${t('request id')}: \`${explanation.requestId.replace(/`/g, '')}\``);
  if (facts.length) lines.push('', facts.join(' · '));
  if (explanation.hint) lines.push('', `**${t('Hint:')}** ${escapeMarkdown(explanation.hint)}`);
  lines.push('', `**${t('Troubleshooting order (start at the first item):')}**`, '');
  explanation.steps.forEach((step, index) => {
    const text = step.first ? `**${escapeMarkdown(step.text)}** ${t('(check this first)')}` : escapeMarkdown(step.text);
    lines.push(`${index + 1}. ${text}`);
  });
  return lines.join('\n');
}
