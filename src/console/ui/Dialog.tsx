/**
 * Confirming a change that cannot be undone (delete, disable, rotate): a modal <dialog>, so focus is
 * held inside it and Escape cancels. `useConfirm` gives a page an async `confirm(...)` and the element.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';

interface Question {
  readonly title: string;
  readonly body?: ComponentChildren;
  readonly action: string;
  readonly danger?: boolean;
  readonly answer: (yes: boolean) => void;
}

/**
 * Shows the <dialog> as a modal once it is on the page and, when it goes, gives the focus back to what had it (the
 * button that opened it): a keyboard user goes on from there, not from the top of the page.
 */
function useShownModal() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.showModal();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return ref;
}

export function useConfirm(): [(title: string, action: string, options?: { body?: ComponentChildren; danger?: boolean }) => Promise<boolean>, JSX.Element | null] {
  const [question, setQuestion] = useState<Question | null>(null);
  const ask = (title: string, action: string, options: { body?: ComponentChildren; danger?: boolean } = {}): Promise<boolean> =>
    new Promise((resolve) => setQuestion({ title, action, ...options, answer: (yes) => { setQuestion(null); resolve(yes); } }));
  return [ask, question ? <ConfirmDialog question={question} /> : null];
}

function ConfirmDialog({ question }: { readonly question: Question }) {
  const t = useT(COMMON);
  const ref = useShownModal();
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="confirm-title" onCancel={(e) => { e.preventDefault(); question.answer(false); }}>
      <h2 id="confirm-title">{question.title}</h2>
      {question.body && <div class="dialog-body">{question.body}</div>}
      <div class="dialog-actions">
        <button type="button" class="btn" onClick={() => question.answer(false)}>{t('cancel')}</button>
        <button type="button" class={`btn ${question.danger ? 'danger' : 'primary'}`} onClick={() => question.answer(true)}>{question.action}</button>
      </div>
    </dialog>
  );
}

/** A modal for a form or a detail view: closed by its button, Escape, or `onClose`. */
export function Modal({ title, onClose, children, wide }: { readonly title: ComponentChildren; readonly onClose: () => void; readonly children: ComponentChildren; readonly wide?: boolean }) {
  const t = useT(COMMON);
  const ref = useShownModal();
  return (
    <dialog ref={ref} class={`dialog${wide ? ' wide' : ''}`} aria-labelledby="modal-title" onCancel={(e) => { e.preventDefault(); onClose(); }}>
      <div class="dialog-head">
        <h2 id="modal-title">{title}</h2>
        <button type="button" class="btn ghost small" onClick={onClose} aria-label={t('close')}>×</button>
      </div>
      <div class="dialog-body">{children}</div>
    </dialog>
  );
}
