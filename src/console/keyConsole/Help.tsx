/** The contract's help beside the key console: the troubleshooting order (7.3) and what each error status means (7.2). */
import { useLang, useT } from '../i18n/lang.ts';
import { Badge, Card } from '../ui/Page.tsx';
import { familyWords, troubleshootingSteps } from '../i18n/errorWords.ts';
import { EXPLAINED_STATUSES } from './help.ts';
import { KEY_CONSOLE_WORDS } from './keyConsoleWords.ts';

export function Help() {
  const t = useT(KEY_CONSOLE_WORDS);
  const { lang } = useLang();
  return (
    <div class="grid two" id="key-help">
      <Card title={t('stepsTitle')}>
        <ol class="steps" id="key-steps">
          {troubleshootingSteps(lang).map((step) => <li key={step.id} data-step={step.id}>{step.text}</li>)}
        </ol>
        <p class="muted small report-note" id="key-report">{t('report')}</p>
      </Card>
      <Card title={t('codesTitle')}>
        <ul class="status-help" id="key-codes">
          {EXPLAINED_STATUSES.map(([status, tone]) => {
            const words = familyWords(status, lang);
            return (
              <li key={status}>
                <Badge tone={tone}>{status === 503 ? '5xx' : String(status)}</Badge>{' '}
                <span><strong>{words.title.replace(/\s*[（(][^（(]*[)）]$/, '')}</strong>{lang === 'zh-CN' ? '。' : '. '}{words.action}</span>
              </li>
            );
          })}
        </ul>
      </Card>
    </div>
  );
}
