/**
 * #/models: the catalogue of the models open to the user's account (contract 1.3, 1.4: "names must
 * equal the console's exactly"), searched as one types (GET /api/console/models?q=, a late answer to an
 * older search dropped by useApi), each name with its copy button.
 */
import { useEffect, useState } from 'preact/hooks';
import { useT } from '../i18n/lang.ts';
import { COMMON } from '../i18n/common.ts';
import { MODEL_WORDS } from '../models/modelWords.ts';
import { ModelTable } from '../models/ModelTable.tsx';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Card, PageHeader } from '../ui/Page.tsx';
import { useApi } from '../useApi.ts';

/** How long typing may pause before the search is sent. */
const SEARCH_DELAY_MS = 150;

export function ModelsPage() {
  const t = useT(MODEL_WORDS);
  const common = useT(COMMON);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const catalogue = useApi('listModels', { query: { q: q || undefined } });
  const rows = catalogue.data?.data ?? null;
  const count = rows?.length ?? 0;
  const summary = rows === null ? '' : q
    ? (count === 1 ? t('matchesOne', { q }) : t('matches', { count, q }))
    : (count === 1 ? t('countOne') : t('count', { count }));

  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <Card>
        <div class="field search-box">
          <label for="models-q">{t('search')}</label>
          <input id="models-q" type="search" value={typed} placeholder={t('searchPlaceholder')} spellcheck={false} autoCapitalize="off" autoComplete="off"
            aria-describedby="models-count" onInput={(e) => setTyped(e.currentTarget.value)} />
        </div>
        <p id="models-count" class="muted" role="status" aria-live="polite">{summary}</p>
        {catalogue.error && <ErrorAlert error={catalogue.error} onRetry={() => void catalogue.reload()} />}
        {catalogue.loading && rows === null && <p class="loading" role="status">{common('loading')}</p>}
        {rows && <ModelTable models={rows} empty={q ? t('noMatch', { q }) : t('none')} testId="models-table" />}
      </Card>
    </>
  );
}
