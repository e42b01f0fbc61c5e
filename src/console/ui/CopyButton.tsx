/** Copies `text` to the clipboard and says so for two seconds (or says to copy by hand). */
import { useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';

/** `ariaLabel` names what is copied for screen readers when the visible label alone does not ("Copy all codes"). */
export function CopyButton({ text, label, ariaLabel, id }: { readonly text: string; readonly label?: string; readonly ariaLabel?: string; readonly id?: string }) {
  const t = useT(COMMON);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" id={id} class="btn small copy" onClick={copy} aria-label={ariaLabel} aria-live="polite" title={state === 'failed' ? t('copyFailed') : undefined}>
      {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : (label ?? t('copy'))}
    </button>
  );
}
