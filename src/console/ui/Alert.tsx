/** Messages in a page: an error from the gateway in its own words, or a note. */
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { reasonOf } from '../i18n/errorWords.ts';
import { useLang, useT } from '../i18n/lang.ts';

export function Alert({ kind = 'info', title, children }: { readonly kind?: 'info' | 'success' | 'error' | 'warning'; readonly title?: ComponentChildren; readonly children?: ComponentChildren }) {
  return (
    <div class={`alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title && <strong class="alert-title">{title}</strong>}
      {children && <div>{children}</div>}
    </div>
  );
}

/**
 * The gateway's message (it says what to do), its code for searching the docs, and when to retry. The
 * gateway speaks English: in Chinese the contract's words for the code come first, the gateway's own
 * message (with its details and request id) under them.
 */
export function ErrorAlert({ error, onRetry }: { readonly error: Error | null | undefined; readonly onRetry?: () => void }) {
  const t = useT(COMMON);
  const { lang } = useLang();
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api?.code === 'network_error' ? t('networkError') : error.message;
  const translated = api && api.code !== 'network_error' && lang !== 'en' ? reasonOf(api.code, api.status, lang) : null;
  return (
    <Alert kind="error" title={t('errorTitle')}>
      {translated && <p class="error-message">{translated}</p>}
      <p class={translated ? 'error-message muted small' : 'error-message'}>{message}</p>
      {api && api.code !== 'network_error' && <p class="muted small">{api.status} · <code>{api.code}</code></p>}
      {api?.retryAfter && <p>{t('retryIn', { seconds: api.retryAfter })}</p>}
      {onRetry && <button type="button" class="btn small" onClick={onRetry}>{t('retry')}</button>}
    </Alert>
  );
}
