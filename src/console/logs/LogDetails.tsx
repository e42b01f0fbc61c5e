/**
 * One request in full, in a dialog: every fact of its row, the reason in words and what to do when it
 * failed (with where to start in the 7.3 order), and, when the full record can be read, the attempts
 * across channels and the upstream's own words.
 */
import { useEffect, useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { familyWords, firstStepFor, reasonOf } from '../i18n/errorWords.ts';
import { useFormat } from '../i18n/format.ts';
import { useLang, useT } from '../i18n/lang.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { Modal } from '../ui/Dialog.tsx';
import { Badge } from '../ui/Page.tsx';
import { LOG_WORDS } from './logWords.ts';
import { failed, statusTone, Tokens, type LogRow } from './LogTable.tsx';
import { Troubleshooting } from './Troubleshooting.tsx';

/** Everything the gateway stored about one request (GET .../logs/detail). */
export type { LogDetail } from '../../contract/api/logs.ts';
import type { LogDetail } from '../../contract/api/logs.ts';

export function LogDetails({ row, load, onClose }: { readonly row: LogRow; readonly load?: (row: LogRow, signal: AbortSignal) => Promise<LogDetail>; readonly onClose: () => void }) {
  const t = useT(LOG_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { lang } = useLang();
  const [detail, setDetail] = useState<LogDetail | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    load(row, controller.signal).then((d) => { if (!controller.signal.aborted) setDetail(d); }, () => { if (!controller.signal.aborted) setLoadFailed(true); });
    return () => controller.abort();
  }, [row.id]);

  const bad = failed(row);
  const family = familyWords(row.status, lang);
  return (
    <Modal title={t('requestOf', { id: row.request_id })} onClose={onClose} wide>
      <div data-testid="log-details" data-request-id={row.request_id}>
        {loadFailed && <p class="muted small">{t('detailFailed')}</p>}
        {load && !detail && !loadFailed && <p class="muted small" role="status">{common('loading')}</p>}
        <dl class="facts">
          <dt>{t('requestId')}</dt>
          <dd class="fact-copy"><code>{row.request_id}</code> <CopyButton text={row.request_id} /></dd>
          <dt>{t('time')}</dt><dd><time dateTime={row.time}>{f.time(row.time)}</time></dd>
          {row.account !== undefined && <><dt>{t('account')}</dt><dd>{row.account ?? t('none')}</dd></>}
          <dt>{t('key')}</dt><dd>{row.key_name ?? (row.key_id === null ? t('none') : t('deletedKey'))}</dd>
          <dt>{t('model')}</dt><dd>{row.model ? <code>{row.model}</code> : t('none')}</dd>
          <dt>{t('method')}</dt><dd><code>{row.method} {row.path}</code></dd>
          <dt>{t('status')}</dt>
          <dd><Badge tone={statusTone(row)}>{row.status}</Badge>{row.error_code && <> <code>{row.error_code}</code></>}</dd>
          {(row.error_code || bad) && <><dt>{t('reason')}</dt><dd data-testid="log-reason">{reasonOf(row.error_code, row.status, lang)}</dd></>}
          {bad && <><dt>{t('whatToDo')}</dt><dd>{family.action}</dd></>}
          <dt>{t('tokens')}</dt><dd><Tokens row={row} /></dd>
          {detail?.completion_cap ? <><dt>{t('completionCap')}</dt><dd>{t('tokensUnit', { count: f.number(detail.completion_cap) })}</dd></> : null}
          <dt>{t('cost')}</dt><dd>{f.usd(row.cost)}</dd>
          <dt>{t('latency')}</dt><dd>{f.ms(row.latency_ms)}</dd>
          <dt>{t('firstByte')}</dt><dd>{f.ms(row.first_byte_ms)}</dd>
          <dt>{t('stream')}</dt><dd>{row.stream ? t('yes') : t('no')}</dd>
          {detail?.channel && <><dt>{t('servedBy')}</dt><dd data-testid="log-channel"><code>{detail.channel}</code></dd></>}
          {detail?.upstream_model && detail.upstream_model !== row.model && <><dt>{t('upstreamModel')}</dt><dd><code>{detail.upstream_model}</code></dd></>}
          {detail?.user_agent && <><dt>{t('userAgent')}</dt><dd class="wrap-anywhere" data-testid="log-user-agent">{detail.user_agent}</dd></>}
          {detail?.client_ip && <><dt>{t('clientIp')}</dt><dd><code>{detail.client_ip}</code></dd></>}
        </dl>
        {detail?.attempts && (
          <section class="log-attempts" aria-labelledby="attempts-title">
            <h3 id="attempts-title">{t('attempts')}</h3>
            {detail.attempts.length === 0 ? <p class="muted">{t('attemptsNone')}</p> : (
              <div class="table-frame">
                <table data-testid="log-attempts">
                  <thead><tr><th scope="col">{t('channel')}</th><th scope="col">{t('outcome')}</th><th scope="col">{t('detail')}</th><th scope="col" class="num">{t('duration')}</th></tr></thead>
                  <tbody>
                    {detail.attempts.map((a, i) => (
                      <tr key={i}>
                        <td><code>{a.channel}</code></td>
                        <td><code>{a.code}</code></td>
                        <td class="wrap">{a.detail}</td>
                        <td class="num">{a.ms === undefined ? t('none') : f.ms(a.ms)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        )}
        {bad && (
          <section class="log-trouble" aria-labelledby="details-trouble-title">
            <h3 id="details-trouble-title">{family.title}</h3>
            <p>{family.meaning}</p>
            <Troubleshooting first={firstStepFor(row.status, row.error_code)} />
          </section>
        )}
      </div>
    </Modal>
  );
}
