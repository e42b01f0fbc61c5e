/**
 * The account's keys as a list, one block per key (a table of ten columns does not fit a phone): name,
 * status (disabled, or stopped by its disabled user) and prefix, each key's actions, then its facts: models, limits, what it spent in its period (of
 * its spending limit, and when that resets), the IP allow-list, when it was last used, made, and when
 * it expires. Every name is text (Preact escapes it) and wraps instead of widening the page.
 */
import { COMMON } from '../i18n/common.ts';
import { useFormat, usd, type Formats } from '../i18n/format.ts';
import { useT, type Translator } from '../i18n/lang.ts';
import { Button } from '../ui/Button.tsx';
import { Badge } from '../ui/Page.tsx';
import { KEY_WORDS } from './keyWords.ts';
import type { KeyView } from './types.ts';

type Words = Translator<(typeof KEY_WORDS)['en']>;

export type KeyAction = 'disable' | 'enable' | 'limits' | 'rotate' | 'delete';

const PERIOD_WORDS = { total: 'periodTotal', day: 'periodDay', month: 'periodMonth' } as const;

export function limitsText(k: KeyView, t: Words, f: Formats): string {
  // 0 is "no limit" (the gateway's limiters let it through), not "nothing allowed".
  const parts = [
    k.rpm ? t('perMinute', { n: f.number(k.rpm) }) : t('unlimitedPerMinute'),
    k.concurrency ? t('atOnce', { n: f.number(k.concurrency) }) : t('unlimitedAtOnce'),
  ];
  if (k.tpm) parts.push(t('tokensPerMinute', { n: f.number(k.tpm) }));
  if (k.rpd) parts.push(t('perDay', { n: f.number(k.rpd) }));
  return parts.join(t('sep'));
}

export function spendingText(k: KeyView, t: Words, f: Formats): string {
  const period = t(PERIOD_WORDS[k.spend_period]);
  if (!k.spend_limit) return t('spentNoLimit', { spent: usd(k.spent), period });
  const amounts = { spent: usd(k.spent), limit: usd(k.spend_limit), period };
  return k.resets_at ? t('spentOfResets', { ...amounts, time: f.time(k.resets_at) }) : t('spentOf', amounts);
}

const isExpired = (k: KeyView): boolean => k.expires_at !== null && Date.parse(k.expires_at) <= Date.now();

function StatusBadge({ k, t, common }: { readonly k: KeyView; readonly t: Words; readonly common: Translator<(typeof COMMON)['en']> }) {
  if (k.status === 'disabled') return <Badge tone="bad">{common('disabled')}</Badge>;
  if (k.disabled_user !== null) return <Badge tone="bad">{t('userDisabled')}</Badge>;
  if (isExpired(k)) return <Badge tone="warn">{t('expired')}</Badge>;
  return <Badge tone="ok">{common('enabled')}</Badge>;
}

export function KeyCards({ keys, busy, onAction }: {
  readonly keys: readonly KeyView[];
  /** The id of the key an action is under way for. */
  readonly busy: number | null;
  readonly onAction: (action: KeyAction, key: KeyView) => void;
}) {
  const t = useT(KEY_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  if (keys.length === 0) return <p class="empty">{t('empty')}</p>;
  return (
    <ul class="key-list" data-testid="keys-list" aria-label={t('listLabel')}>
      {keys.map((k) => (
        <li key={k.id} class="key-item" data-key-name={k.name} data-key-id={String(k.id)}>
          <div class="key-head">
            <div class="key-title">
              <strong class="key-name">{k.name}</strong>
              <StatusBadge k={k} t={t} common={common} />
              <code class="muted small">{k.prefix}</code>
            </div>
            <div class="row-actions" role="group" aria-label={t('actionsOf', { name: k.name })}>
              {k.status === 'enabled'
                ? <Button small busy={busy === k.id} onClick={() => onAction('disable', k)}>{t('disable')}</Button>
                : <Button small busy={busy === k.id} onClick={() => onAction('enable', k)}>{t('enable')}</Button>}
              <Button small disabled={busy === k.id} onClick={() => onAction('limits', k)}>{t('editLimits')}</Button>
              <Button small disabled={busy === k.id} onClick={() => onAction('rotate', k)}>{t('rotate')}</Button>
              <Button small variant="danger" disabled={busy === k.id} onClick={() => onAction('delete', k)}>{t('delete')}</Button>
            </div>
          </div>
          {k.disabled_user !== null && <p class="muted small" data-user-disabled>{t('userDisabledNote', { name: k.disabled_user })}</p>}
          <dl class="key-facts">
            <div><dt>{t('models')}</dt><dd data-models>{k.models ? k.models.join(', ') : <span class="muted">{t('allModels')}</span>}</dd></div>
            <div><dt>{t('limits')}</dt><dd data-limits>{limitsText(k, t, f)}</dd></div>
            <div><dt>{t('spending')}</dt><dd data-spending>{spendingText(k, t, f)}</dd></div>
            <div><dt>{t('ips')}</dt><dd data-ips>{k.allow_ips ? k.allow_ips.join(', ') : t('anyIp')}</dd></div>
            <div><dt>{t('lastUsed')}</dt><dd data-last-used>{k.last_used_at ? f.time(k.last_used_at) : t('never')}</dd></div>
            <div><dt>{t('created')}</dt><dd>{f.date(k.created_at)}</dd></div>
            <div><dt>{t('expires')}</dt><dd data-expires>{k.expires_at ? f.date(k.expires_at) : t('never')}</dd></div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
