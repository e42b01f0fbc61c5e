/** Messages in a page: an error from the gateway in its own words, or a note. */
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';

export function Alert({ kind = 'info', title, children }: { readonly kind?: 'info' | 'success' | 'error' | 'warning'; readonly title?: ComponentChildren; readonly children?: ComponentChildren }) {
  return (
    <div class={`alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title && <strong class="alert-title">{title}</strong>}
      {children && <div>{children}</div>}
    </div>
  );
}

/** The gateway's message (it says what to do), its code for searching the docs, and when to retry. */
export function ErrorAlert({ error, onRetry }: { readonly error: Error | null | undefined; readonly onRetry?: () => void }) {
  const t = useT(COMMON);
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const message = api?.code === 'network_error' ? t('networkError') : error.message;
  return (
    <Alert kind="error" title={t('errorTitle')}>
      <p class="error-message">{message}</p>
      {api && api.code !== 'network_error' && <p class="muted small">{api.status} · <code>{api.code}</code></p>}
      {api?.retryAfter && <p>{t('retryIn', { seconds: api.retryAfter })}</p>}
      {onRetry && <button type="button" class="btn small" onClick={onRetry}>{t('retry')}</button>}
    </Alert>
  );
}
