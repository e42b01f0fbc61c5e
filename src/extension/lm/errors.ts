/**
 * A failure inside a language-model request -> the one message VS Code shows for it
 * (a provider can only throw): what happened, what to do, what the gateway said and
 * the request id. Pure.
 */
import type { Explanation } from '../errors/explain.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';

/** Which LanguageModelError factory fits: VS Code callers branch on these codes. */
export type LmErrorKind = 'NoPermissions' | 'NotFound' | 'Unknown';

export function lmErrorKind(explanation: Explanation): LmErrorKind {
  if (explanation.code === 'model_not_found') return 'NotFound';
  if (explanation.kind === 'authentication' || explanation.kind === 'permission' || explanation.kind === 'not_configured') return 'NoPermissions';
  return 'Unknown';
}

export function lmErrorMessage(explanation: Explanation, t: Translate = english): string {
  const parts = [`Model Gateway — ${explanation.title}: ${explanation.meaning}`, `${t('What to do:')} ${explanation.action}`];
  if (explanation.gatewayMessage) parts.push(`${t('The gateway said:')} ${explanation.gatewayMessage}`);
  if (explanation.hint) parts.push(`${t('Hint:')} ${explanation.hint}`);
  if (explanation.requestId) parts.push(`${t('request id')}: ${explanation.requestId}`);
  return parts.join('\n');
}
