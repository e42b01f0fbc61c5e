/**
 * #/admin/channels: every channel as a card (status, health, key set or not, models with those
 * unpriced marked), a new one added from a dialog, each edited in place, tested, disabled or enabled,
 * and deleted after a confirmation. The models a channel serves without a price are pointed out, with
 * the way to Models & prices: the gateway refuses them until priced.
 */
import { useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { ChannelCard } from '../../admin/ChannelCard.tsx';
import { addBody, EMPTY_DRAFT, updateBody, type ChannelView, type ChannelDraft } from '../../admin/channelDraft.ts';
import { ChannelForm } from '../../admin/ChannelForm.tsx';
import { CHANNELS_WORDS } from '../../admin/channelsWords.ts';
import { COMMON } from '../../i18n/common.ts';
import { useT } from '../../i18n/lang.ts';
import { href } from '../../router.ts';
import { useApi } from '../../useApi.ts';
import { Alert, ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Modal, useConfirm } from '../../ui/Dialog.tsx';
import { PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

export function AdminChannelsPage() {
  const t = useT(CHANNELS_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const channels = useApi('listChannels');
  const models = useApi('listAdminModels');
  const change = useChange();
  const [confirm, confirmDialog] = useConfirm();
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<Error | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [editError, setEditError] = useState<Error | null>(null);
  const unpriced = new Set((models.data?.data ?? []).filter((m) => !m.priced && m.channels.length > 0).map((m) => m.name));
  const reload = async (): Promise<void> => {
    await Promise.all([channels.reload(true), models.reload(true)]);
  };

  const add = (draft: ChannelDraft): void => {
    setAddError(null);
    void change.run('add', async () => {
      try {
        const answer = await call('addChannel', { body: addBody(draft) });
        setAdding(false);
        await reload();
        const served = Object.keys(answer.channel.models);
        const missing = answer.unpriced ?? [];
        return (
          <>
            <p>{t('added', { name: answer.channel.name, models: served.join(', ') })}</p>
            {missing.length > 0 && (
              <p>{t('unpricedSaid', { models: missing.join(', ') })}{' '}
                <a class="btn small primary" id="channel-price-link" href={href('/admin/models', { price: missing[0] })}>{t('priceIt', { model: missing[0]! })}</a>
              </p>
            )}
          </>
        );
      } catch (error) {
        setAddError(error as Error);
        throw error;
      }
    }).then((ok) => { if (!ok) change.clear(); });
  };

  const save = (channel: ChannelView, draft: ChannelDraft): void => {
    setEditError(null);
    const body = updateBody(channel, draft);
    if (!body) {
      setEditing(null);
      void change.run('nothing', async () => t('nothingChanged'));
      return;
    }
    void change.run(`save:${channel.name}`, async () => {
      try {
        await call('updateChannel', { body });
      } catch (error) {
        setEditError(error as Error);
        throw error;
      }
      setEditing(null);
      await reload();
      return t('saved', { name: channel.name });
    }).then((ok) => { if (!ok) change.clear(); });
  };

  const toggle = (channel: ChannelView): void => {
    void change.run(`toggle:${channel.name}`, async () => {
      const enabled = channel.status === 'enabled';
      await call(enabled ? 'disableChannel' : 'enableChannel', { body: { name: channel.name } });
      await reload();
      return enabled ? t('disabledSaid', { name: channel.name }) : t('enabledSaid', { name: channel.name });
    });
  };

  const remove = async (channel: ChannelView): Promise<void> => {
    if (!(await confirm(t('deleteAsk', { name: channel.name }), t('delete'), { body: t('deleteBody'), danger: true }))) return;
    await change.run(`delete:${channel.name}`, async () => {
      await call('deleteChannel', { body: { name: channel.name } });
      if (editing === channel.name) setEditing(null);
      await reload();
      return t('deletedSaid', { name: channel.name });
    });
  };

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>}
        actions={<>
          <Button id="channels-refresh" onClick={() => void reload()}>{common('refresh')}</Button>
          <Button variant="primary" id="channel-add-open" onClick={() => { setAddError(null); setAdding(true); }}>{t('add')}</Button>
        </>} />
      <ChangeStatus change={change} id="channels" />
      {unpriced.size > 0 && (
        <Alert kind="warning">
          <p id="channels-unpriced">{unpriced.size === 1 ? t('unpricedBannerOne') : t('unpricedBanner', { count: unpriced.size })}{' '}
            <a href={href('/admin/models')}>{t('pricesLink')}</a></p>
        </Alert>
      )}
      <ErrorAlert error={channels.error} onRetry={() => void channels.reload()} />
      {channels.loading && <p class="loading" role="status">{common('loading')}</p>}
      {channels.data && channels.data.data.length === 0 && <p class="empty">{t('empty')}</p>}
      <div id="channels" class="channel-list">
        {channels.data?.data.map((c) => (
          <ChannelCard key={c.name} channel={c} unpriced={unpriced} busy={change.busy} editing={editing === c.name} editError={editing === c.name ? editError : null}
            onEdit={(open) => { setEditError(null); setEditing(open ? c.name : null); }} onSave={(draft) => save(c, draft)}
            onToggle={() => toggle(c)} onDelete={() => void remove(c)} />
        ))}
      </div>
      {adding && (
        <Modal title={t('addTitle')} onClose={() => setAdding(false)} wide>
          <ChannelForm id="channel" initial={EMPTY_DRAFT} busy={change.busy === 'add'} error={addError} submitLabel={t('addSubmit')}
            onSubmit={add} onCancel={() => setAdding(false)} />
        </Modal>
      )}
      {confirmDialog}
    </>
  );
}
