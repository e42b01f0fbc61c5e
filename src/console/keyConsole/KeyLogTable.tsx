/**
 * The latest requests of the key the console was opened with (GET /api/console/logs): time, request
 * id, endpoint, model, status, the error code with its reason, tokens, cost, latency and streaming.
 */
import type { Answer } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { useFormat, usd } from '../i18n/format.ts';
import { useLang, useT } from '../i18n/lang.ts';
import { DataTable, type Column } from '../ui/DataTable.tsx';
import { Badge } from '../ui/Page.tsx';
import { familyWords } from '../i18n/errorWords.ts';
import { KEY_CONSOLE_WORDS } from './keyConsoleWords.ts';

type KeyLog = Answer<'listKeyLogs'>['data'][number];

const tone = (status: number): 'ok' | 'warn' | 'bad' => (status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad');

export function KeyLogTable({ logs }: { readonly logs: readonly KeyLog[] }) {
  const t = useT(KEY_CONSOLE_WORDS);
  const common = useT(COMMON);
  const { lang } = useLang();
  const f = useFormat();
  const columns: Column<KeyLog>[] = [
    { header: t('time'), kind: 'wrap', cell: (l) => <time dateTime={l.time} title={l.time}>{f.time(l.time)}</time> },
    { header: t('requestId'), kind: 'wrap', cell: (l) => <code>{l.request_id}</code> },
    { header: t('endpoint'), kind: 'nowrap', cell: (l) => <code class="muted">{`${l.method} ${l.path}`}</code> },
    { header: t('model'), kind: 'wrap', cell: (l) => (l.model ? <code>{l.model}</code> : <span class="muted">—</span>) },
    {
      header: t('result'),
      cell: (l) => (
        <span title={l.attempts.length ? t('failedOver', { list: l.attempts.map((a) => `${a.channel} (${a.code}${a.ms !== undefined ? `, ${f.ms(a.ms)}` : ''})`).join(', ') }) : undefined}>
          <Badge tone={tone(l.status)}>{String(l.status)}</Badge>
        </span>
      ),
    },
    {
      header: t('error'), kind: 'wrap',
      cell: (l) => (l.error_code
        ? <><code>{l.error_code}</code><div class="muted small">{familyWords(l.status, lang).title}</div></>
        : <span class="muted">—</span>),
    },
    {
      header: t('tokens'), kind: 'num',
      cell: (l) => {
        const notes = [l.usage_estimated ? t('estimated') : '', l.completion_cap ? t('capped', { n: f.number(l.completion_cap) }) : ''].filter(Boolean).join('; ');
        return <span title={notes || undefined}>{`${f.number(l.prompt_tokens)} / ${f.number(l.completion_tokens)}${l.usage_estimated ? ' *' : ''}`}</span>;
      },
    },
    { header: t('cost'), kind: 'num', cell: (l) => usd(l.cost) },
    { header: t('latency'), kind: 'num', cell: (l) => f.ms(l.latency_ms) },
    { header: t('stream'), cell: (l) => (l.stream ? common('yes') : common('no')) },
  ];
  return <DataTable rows={logs} columns={columns} rowKey={(l) => l.request_id} label={t('logsLabel')} empty={t('logsEmpty')} testId="key-logs" stackOnPhone
    rowAttrs={(l) => ({ 'data-request-id': l.request_id })} />;
}
