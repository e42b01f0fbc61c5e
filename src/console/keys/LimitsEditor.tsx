/**
 * A key's limits changed where it is (POST /api/console/keys/limits): a dialog over the list, its fields
 * starting from the key as it is; the secret, name and models are kept. A refusal stays in the dialog,
 * in the gateway's words, and nothing changes.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Dialog.tsx';
import { KEY_WORDS } from './keyWords.ts';
import { LimitFields } from './LimitFields.tsx';
import { limitsBody, limitsFormOf, type LimitsForm } from './limits.ts';
import type { KeyView } from './types.ts';

export function LimitsEditor({ keyView, onClose, onSaved }: { readonly keyView: KeyView; readonly onClose: () => void; readonly onSaved: () => void }) {
  const t = useT(KEY_WORDS);
  const common = useT(COMMON);
  const [form, setForm] = useState<LimitsForm>(() => limitsFormOf(keyView));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call('setKeyLimits', { body: { id: keyView.id, ...limitsBody(form, true) } });
      onSaved();
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };

  return (
    <Modal title={t('editTitle', { name: keyView.name })} onClose={onClose} wide>
      <form id="key-limits-form" data-limits-of={keyView.name} onSubmit={submit} autoComplete="off">
        <p class="muted">{t('editIntro')}</p>
        <ErrorAlert error={error} />
        <LimitFields idPrefix="edit-key" form={form} onChange={setForm} editing />
        <div class="dialog-actions">
          <Button onClick={onClose}>{common('cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy} id="key-limits-save">{t('saveLimits')}</Button>
        </div>
      </form>
    </Modal>
  );
}
