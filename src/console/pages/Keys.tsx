/**
 * #/keys: the signed-in user's API keys (contract 5.2, "created by a logged-in user in the console").
 * Make one (its secret shown once, with snippets), list them with what each spent, disable and enable,
 * change limits, rotate (after a confirmation; the new secret shown once) and delete (after one).
 */
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { usd } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { KEY_WORDS } from '../keys/keyWords.ts';
import { KeyCards, type KeyAction } from '../keys/KeyCards.tsx';
import { LimitsEditor } from '../keys/LimitsEditor.tsx';
import { NewKeyForm } from '../keys/NewKeyForm.tsx';
import { NewSecret } from '../keys/NewSecret.tsx';
import type { CreatedKey, KeyView } from '../keys/types.ts';
import { useUser } from '../session.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { useConfirm } from '../ui/Dialog.tsx';
import { Card, PageHeader } from '../ui/Page.tsx';
import { useApi } from '../useApi.ts';

export function KeysPage() {
  const t = useT(KEY_WORDS);
  const common = useT(COMMON);
  const user = useUser();
  const keys = useApi('listKeys');
  const account = useApi('getAccount');
  const catalogue = useApi('listModels');
  const [confirm, dialog] = useConfirm();
  const [created, setCreated] = useState<{ answer: CreatedKey; rotated: boolean } | null>(null);
  const [editing, setEditing] = useState<KeyView | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const models = catalogue.data?.data.map((m) => m.name) ?? (catalogue.error ? [] : null);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async (): Promise<void> => {
    setRefreshing(true);
    await Promise.all([keys.reload(true), account.reload(true)]);
    setRefreshing(false);
  };

  const shown = (answer: CreatedKey, rotated: boolean): void => {
    setCreated({ answer, rotated });
    setNote(null);
    void refresh();
  };

  const act = async (action: KeyAction, key: KeyView): Promise<void> => {
    setError(null);
    setNote(null);
    if (action === 'limits') {
      setEditing(key);
      return;
    }
    if (action === 'rotate' && !(await confirm(t('rotateTitle', { name: key.name }), t('rotate'), { body: <p>{t('rotateBody')}</p> }))) return;
    if (action === 'delete' && !(await confirm(t('deleteTitle', { name: key.name }), t('delete'), { body: <p>{t('deleteBody')}</p>, danger: true }))) return;
    setBusy(key.id);
    try {
      if (action === 'rotate') {
        shown(await call('rotateKey', { body: { id: key.id } }), true);
      } else {
        await call(action === 'disable' ? 'disableKey' : action === 'enable' ? 'enableKey' : 'deleteKey', { body: { id: key.id } });
        setNote(t(action === 'disable' ? 'disabledNote' : action === 'enable' ? 'enabledNote' : 'deletedNote', { name: key.name }));
        if (action === 'delete' && created?.answer.key.id === key.id) setCreated(null);
        await keys.reload(true);
      }
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(null);
    }
  };

  const balance = account.data?.account.balance;
  const accountName = account.data?.account.name ?? user.account;

  return (
    <>
      <PageHeader title={t('title')}
        description={<>
          {accountName ? t('intro', { account: accountName }) : t('introNoAccount')}
          {balance && <> <span class="note-pill" data-testid="keys-balance">{t('balance', { remaining: usd(balance.remaining), used: usd(balance.used) })}</span></>}
        </>}
        actions={<Button id="keys-refresh" onClick={() => void refresh()} busy={refreshing}>{common('refresh')}</Button>} />
      {created && (
        <NewSecret answer={created.answer} rotated={created.rotated} onDone={() => setCreated(null)} />
      )}
      <Card title={t('createTitle')} id="new-key">
        {catalogue.error && <ErrorAlert error={catalogue.error} onRetry={() => void catalogue.reload()} />}
        <NewKeyForm models={models} onCreated={(answer) => shown(answer, false)} />
      </Card>
      <Card title={t('listTitle')} id="keys">
        <ErrorAlert error={error} />
        {note && <Alert kind="success">{note}</Alert>}
        {keys.error && <ErrorAlert error={keys.error} onRetry={() => void keys.reload()} />}
        {keys.loading && !keys.data && <p class="loading" role="status">{common('loading')}</p>}
        {keys.data && <KeyCards keys={keys.data.data} busy={busy} onAction={(action, key) => void act(action, key)} />}
      </Card>
      {editing && (
        <LimitsEditor keyView={editing} onClose={() => setEditing(null)} onSaved={() => {
          setNote(t('limitsSaved', { name: editing.name }));
          setEditing(null);
          void keys.reload(true);
        }} />
      )}
      {dialog}
    </>
  );
}
