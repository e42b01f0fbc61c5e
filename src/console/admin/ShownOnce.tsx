/**
 * A secret the gateway answers once (redemption codes, an admin access token): shown in a panel that
 * takes the focus, with its copy buttons, until the admin says it is copied; then it leaves the page
 * (the page keeps it nowhere else, not in web storage either).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/lang.ts';
import { Button } from '../ui/Button.tsx';
import { ADMIN_WORDS } from './adminWords.ts';

export function ShownOnce({ id, title, children, onDone, plural }: {
  readonly id: string;
  readonly title: ComponentChildren;
  readonly children: ComponentChildren;
  readonly onDone: () => void;
  readonly plural?: boolean;
}) {
  const t = useT(ADMIN_WORDS);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <section ref={ref} id={id} class="card shown-once" tabIndex={-1} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="once-warning">{plural ? t('shownOnceAll') : t('shownOnce')}</p>
      {children}
      <Button variant="primary" id={`${id}-done`} onClick={onDone}>{plural ? t('copiedAllDone') : t('copiedDone')}</Button>
    </section>
  );
}
