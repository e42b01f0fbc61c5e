/**
 * The contract's troubleshooting order (7.3) as a numbered list, in the person's language; for one
 * failed request, the step its error points at is marked "start here".
 */
import type { TroubleshootingStep } from '../../contract/errors.ts';
import { troubleshootingSteps } from '../i18n/errorWords.ts';
import { useLang, useT } from '../i18n/lang.ts';
import { LOG_WORDS } from './logWords.ts';

export function Troubleshooting({ first, id }: { readonly first?: TroubleshootingStep; readonly id?: string }) {
  const t = useT(LOG_WORDS);
  const { lang } = useLang();
  return (
    <div class="troubleshooting" id={id} data-testid="troubleshooting">
      <p class="muted small">{t('troubleIntro')}</p>
      <ol class="steps">
        {troubleshootingSteps(lang).map((step) => (
          <li key={step.id} data-step={step.id} class={step.id === first ? 'first' : undefined} aria-current={step.id === first ? 'step' : undefined}>
            {step.text}
            {step.id === first && <> <span class="badge warn">{t('troubleStart')}</span></>}
          </li>
        ))}
      </ol>
    </div>
  );
}
