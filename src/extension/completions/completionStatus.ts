/**
 * What the completions status bar item says (no vscode import): on, off (and why), or failing with the
 * contract's diagnosis. And which failures become a notification: each kind of problem once (a 401 is
 * reported once, not on every keystroke), again only after a success or a change of settings or key.
 */
import type { Explanation } from '../errors/explain.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';

export type CompletionState =
  | { readonly kind: 'on'; readonly model: string }
  | { readonly kind: 'off'; readonly reason: 'no_model' | 'not_configured' | 'switched_off' | 'language' | 'excluded'; readonly model: string }
  | { readonly kind: 'failing'; readonly model: string; readonly explanation: Explanation };

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
}

export function statusView(state: CompletionState, t: Translate = english): StatusView {
  if (state.kind === 'on') return { text: '$(sparkle) ' + t('Completions'), tooltip: t('Inline completions on, with {0}. Click to turn them off.', state.model) };
  if (state.kind === 'failing') {
    const { explanation } = state;
    const said = explanation.gatewayMessage ? ` ${t('The gateway said:')} ${explanation.gatewayMessage}` : '';
    return {
      text: '$(warning) ' + t('Completions'),
      tooltip: `${t('Inline completions with {0} are failing.', state.model)} ${explanation.title}: ${explanation.meaning} ${t('What to do:')} ${explanation.action}${said}`,
    };
  }
  const why: Record<typeof state.reason, string> = {
    no_model: t('No completion model is set. Click to pick one.'),
    not_configured: t('Inline completions need the base URL and the API key of the gateway. Click to set them.'),
    switched_off: t('Inline completions are switched off. Click to turn them on.'),
    language: t('Inline completions are off for this language (modelGateway.completions.enable).'),
    excluded: t('This file is excluded: nothing in it is ever sent for completion.'),
  };
  return { text: '$(circle-slash) ' + t('Completions'), tooltip: why[state.reason] };
}

/** Remembers which problems were already shown, so a failing key does not notify on every keystroke. */
export class FailureNotices {
  readonly #shown = new Set<string>();

  /** True the first time this kind of problem is seen since the last reset. */
  shouldNotify(explanation: Explanation): boolean {
    const key = `${explanation.kind}|${explanation.code ?? ''}`;
    if (this.#shown.has(key)) return false;
    this.#shown.add(key);
    return true;
  }

  /** A success, or new settings or key: the next problem is news again. */
  reset(): void {
    this.#shown.clear();
  }
}
