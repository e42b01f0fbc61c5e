/**
 * #/admin/codes: a batch of single-use codes generated (value, how many, a batch name, an expiry) and
 * shown this once with a Copy all button, gone from the page when the admin says they are copied; the
 * list (never a code: its value, status, who redeemed it and when), by batch and status, older pages;
 * a code or every unused code of a batch disabled after a confirmation (admin/CodeBatches.tsx).
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { BatchList, GenerateCard, useBatchFields } from '../../admin/CodeBatches.tsx';
import { CODES_WORDS } from '../../admin/codesWords.ts';
import { ShownOnce } from '../../admin/ShownOnce.tsx';
import { cleanUsd, usdProblem } from '../../admin/usd.ts';
import { useFormat, usd } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { TextField } from '../../ui/fields.tsx';
import { PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Code = Answer<'listCodes'>['data'][number];

function GenerateForm({ onMade }: { readonly onMade: (answer: Answer<'createCodes'>) => void }) {
  const t = useT(CODES_WORDS);
  const a = useT(ADMIN_WORDS);
  const [value, setValue] = useState('');
  const batch = useBatchFields(t, 'generate', 'spring-promo');
  const valueProblem = usdProblem(value);
  return (
    <GenerateCard t={t} prefix="generate" ok={!valueProblem && batch.ok} reset={() => { setValue(''); batch.reset(); }}
      send={async () => onMade(await call('createCodes', { body: { value_usd: cleanUsd(value), ...batch.body() } }))}>
      {(tried) => (
        <>
          <TextField id="generate-value" label={t('value')} hint={a('usdHint')} value={value} onValue={setValue} inputMode="decimal" placeholder="5.00" maxLength={32}
            required spellcheck={false} error={tried && valueProblem ? a(valueProblem) : null} />
          {batch.fields(tried)}
        </>
      )}
    </GenerateCard>
  );
}

export function AdminCodesPage() {
  const t = useT(CODES_WORDS);
  const a = useT(ADMIN_WORDS);
  const f = useFormat();
  const [made, setMade] = useState<Answer<'createCodes'> | null>(null);
  const all = made?.codes.map((c) => c.code).join('\n') ?? '';
  const what = made ? [
    made.codes.length === 1 ? t('newWhatOne', { value: usd(made.value) }) : t('newWhat', { count: made.codes.length, value: usd(made.value) }),
    made.batch ? t('newBatch', { batch: made.batch }) : '',
    made.expires_at ? t('newExpires', { date: f.date(made.expires_at) }) : '',
  ].filter(Boolean).join(', ') : '';

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>} />
      {made && (
        <ShownOnce id="new-codes" plural title={<>{t('newCodes')} <span class="muted" id="new-codes-what">{what}</span></>} onDone={() => setMade(null)}>
          <pre id="new-codes-list" class="codes-list">{all}</pre>
          <p><CopyButton text={all} label={t('copyAll')} ariaLabel={t('copyAllLabel')} /></p>
        </ShownOnce>
      )}
      <GenerateForm onMade={setMade} />
      <BatchList<Code> t={t} prefix="codes" rowAttr="data-code-id" made={made}
        list={(query, signal) => call('listCodes', { query, signal })}
        disable={(target) => call('disableCodes', { body: target })}
        columns={(c) => [
          c.id, c.batch, { header: t('colValue'), kind: 'num', cell: (row) => usd(row.value) }, c.status,
          { header: t('colBy'), kind: 'wrap', cell: (row) => (row.redeemed_by ? `${row.redeemed_by.account ?? '?'}${row.redeemed_by.user ? ` (${row.redeemed_by.user})` : ''}` : '—') },
          c.created((row) => row.created_by && <div class="muted">{t('byAdmin', { name: row.created_by })}</div>),
          { header: t('colRedeemed'), cell: (row) => (row.redeemed_at ? f.time(row.redeemed_at) : '—') },
          c.expires, c.actions,
        ]} />
    </>
  );
}
