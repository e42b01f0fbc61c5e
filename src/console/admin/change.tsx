/**
 * A page's changes (create, disable, top up...): one at a time per target, the gateway's refusal in
 * its own words, and what was done said once in a notice. The notice and the error are brought into
 * view when they change, so a change made at the bottom of a long list is not answered off screen.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLang } from '../i18n/lang.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { useSend } from '../ui/send.ts';

export interface Change {
  /** What is running now (an id the page chose, like "disable:bea"), or null. */
  readonly busy: string | null;
  readonly error: Error | null;
  readonly notice: ComponentChildren | null;
  /** Runs `work` unless something runs already; its answer (when not undefined) becomes the notice. True when it worked. */
  readonly run: (id: string, work: () => Promise<ComponentChildren | void>) => Promise<boolean>;
  readonly clear: () => void;
}

export function useChange(): Change {
  const request = useSend();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<ComponentChildren | null>(null);
  // What was said was said in the language of then: a new language starts afresh.
  const { lang } = useLang();
  useEffect(() => {
    request.clear();
    setNotice(null);
  }, [lang]);
  const run = (id: string, work: () => Promise<ComponentChildren | void>): Promise<boolean> =>
    request.send(async () => {
      setBusy(id);
      setNotice(null);
      try {
        const said = await work();
        if (said !== undefined) setNotice(said);
      } finally {
        setBusy(null);
      }
    });
  return { busy, error: request.error, notice, run, clear: () => { request.clear(); setNotice(null); } };
}

/** The notice (#ID-notice) and the refusal (#ID-error) of a page's changes. */
export function ChangeStatus({ change, id }: { readonly change: Change; readonly id: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (change.notice || change.error) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [change.notice, change.error]);
  return (
    <div ref={ref} class="change-status">
      {change.notice && <div id={`${id}-notice`}><Alert kind="success">{change.notice}</Alert></div>}
      {change.error && <div id={`${id}-error`}><ErrorAlert error={change.error} /></div>}
    </div>
  );
}
