/**
 * #/admin/models: every model priced or served by a channel, searched by name, with its kind, price,
 * context, tools and channels. Those a channel serves without a price come first, flagged: the gateway
 * refuses them until priced. Set price opens the form for the row (or for `?price=NAME`, the link the
 * Channels page gives for a new channel's unpriced models).
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { PriceDialog } from '../../admin/PriceDialog.tsx';
import { emptyPrice, priceBody, priceDraftOf, priceText, type AdminModel, type PriceDraft } from '../../admin/priceDraft.ts';
import { PRICES_WORDS } from '../../admin/pricesWords.ts';
import { useSettled } from '../../admin/usePaged.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { navigate, useRoute } from '../../router.ts';
import { useApi } from '../../useApi.ts';
import { Alert, ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

export function AdminModelPricesPage() {
  const t = useT(PRICES_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { query } = useRoute();
  const asked = query.get('price');
  const [q, setQ] = useState('');
  const search = useSettled(q.trim());
  const models = useApi('listAdminModels', { query: { q: search } });
  const change = useChange();
  const [editing, setEditing] = useState<{ draft: PriceDraft; fixed: boolean } | null>(null);
  const [formError, setFormError] = useState<Error | null>(null);

  const open = (m: AdminModel | null): void => {
    setFormError(null);
    change.clear();
    setEditing(m ? { draft: priceDraftOf(m), fixed: true } : { draft: emptyPrice(), fixed: false });
  };
  // A link from the Channels page (#/admin/models?price=NAME): the form for that model, once.
  useEffect(() => {
    if (!asked || !models.data) return;
    const found = models.data.data.find((m) => m.name === asked);
    setEditing({ draft: found ? priceDraftOf(found) : emptyPrice(asked), fixed: found !== undefined });
    navigate('/admin/models', undefined, true);
  }, [asked, models.data]);

  const save = (draft: PriceDraft): void => {
    setFormError(null);
    void change.run('price', async () => {
      let model: AdminModel;
      try {
        model = (await call('priceModel', { body: priceBody(draft) })).model;
      } catch (error) {
        setFormError(error as Error);
        throw error;
      }
      setEditing(null);
      await models.reload(true);
      return t(model.served ? 'pricedServed' : 'pricedNotServed', { model: model.name, price: priceText(model, t) });
    }).then((ok) => { if (!ok) change.clear(); });
  };

  const list = models.data?.data ?? [];
  const missing = list.filter((m) => !m.priced);
  const rows = [...missing, ...list.filter((m) => m.priced)];
  const columns: Column<AdminModel>[] = [
    {
      header: t('colModel'), kind: 'wrap', cell: (m) => (
        <>
          <code class="model-name">{m.name}</code>
          {!m.priced ? <> <Badge tone="warn">{t('noPrice')}</Badge></> : m.free ? <> <Badge tone="muted">{t('free')}</Badge></> : null}
        </>
      ),
    },
    { header: t('colKind'), kind: 'nowrap', cell: (m) => (m.kind ? t(m.kind) : '—') },
    { header: t('colPrice'), kind: 'wrap', cell: (m) => (m.priced ? priceText(m, t) : <span class="warn-text">{t('notServed')}</span>) },
    { header: t('colContext'), kind: 'num', cell: (m) => (m.context_length ? f.number(m.context_length) : '—') },
    { header: t('colMaxOutput'), kind: 'num', cell: (m) => (m.max_output_tokens ? f.number(m.max_output_tokens) : '—') },
    { header: t('colTools'), cell: (m) => (m.tool_calling === null ? '—' : m.tool_calling ? t('yes') : t('no')) },
    { header: t('colImages'), cell: (m) => (m.image_input === null ? '—' : m.image_input ? t('yes') : t('no')) },
    { header: t('colChannels'), kind: 'wrap', cell: (m) => (m.channels.length ? `${m.channels.join(', ')}${m.served ? '' : ` ${t('disabledChannels')}`}` : t('noChannel')) },
    {
      header: common('actions'), cell: (m) => (
        <Button small variant={m.priced ? 'default' : 'primary'} aria-label={`${m.priced ? t('editPrice') : t('setPrice')} ${m.name}`} onClick={() => open(m)}>
          {m.priced ? t('editPrice') : t('setPrice')}
        </Button>
      ),
    },
  ];
  const count = search
    ? (list.length === 1 ? t('countMatchOne', { q: search }) : t('countMatch', { count: list.length, q: search }))
    : (list.length === 1 ? t('countOne') : t('count', { count: list.length }));

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>}
        actions={<Button variant="primary" id="price-new" onClick={() => open(null)}>{t('newPrice')}</Button>} />
      <ChangeStatus change={change} id="prices" />
      {missing.length > 0 && (
        <Alert kind="warning"><p id="prices-unpriced">{t(missing.length === 1 ? 'unpricedOne' : 'unpriced', { count: missing.length, names: missing.map((m) => m.name).join(', ') })}</p></Alert>
      )}
      <Card>
        <div class="filters">
          <TextField id="prices-q" type="search" label={t('search')} value={q} onValue={setQ} spellcheck={false} autoCapitalize="off" autoComplete="off" maxLength={256} />
          <Button id="prices-refresh" onClick={() => void models.reload(true)}>{common('refresh')}</Button>
        </div>
        <ErrorAlert error={models.error} onRetry={() => void models.reload()} />
        {models.loading && <p class="loading" role="status">{common('loading')}</p>}
        {models.data && (
          <>
            <p class="muted" id="prices-count" role="status">{count}</p>
            <DataTable stackOnPhone testId="prices-table" label={t('title')} rows={rows} columns={columns} rowKey={(m) => m.name}
              rowAttrs={(m) => ({ 'data-model': m.name, class: m.priced ? undefined : 'unpriced' })} empty={search ? t('emptySearch', { q: search }) : t('empty')} />
          </>
        )}
      </Card>
      {editing && <PriceDialog initial={editing.draft} fixedName={editing.fixed} busy={change.busy === 'price'} error={formError} onSubmit={save} onClose={() => setEditing(null)} />}
    </>
  );
}
