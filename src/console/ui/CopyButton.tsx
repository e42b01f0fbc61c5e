/** Copies `text` to the clipboard and says so for two seconds (or says to copy by hand). */
import { useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';

export function CopyButton({ text, label }: { readonly text: string; readonly label?: string }) {
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
    <button type="button" class="btn small copy" onClick={copy} aria-live="polite" title={state === 'failed' ? t('copyFailed') : undefined}>
      {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : (label ?? t('copy'))}
    </button>
  );
}
