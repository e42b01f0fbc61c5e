/**
 * #/topup: the user redeems a code (POST /api/console/account/redeem): its value is added to the
 * account's balance at once, and the new balance shown. Too many wrong codes are throttled by the
 * gateway (429 with Retry-After): the button waits that long, counting down.
 */
import { useState } from 'preact/hooks';
import { ApiError, call, type Answer } from '../api.ts';
import { usd } from '../i18n/format.ts';
import { defineMessages, useT } from '../i18n/lang.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/fields.tsx';
import { Card, PageHeader, Stat } from '../ui/Page.tsx';
import { useApi } from '../useApi.ts';
import { useCountdown } from '../ui/useCountdown.ts';

const WORDS = defineMessages({
  en: {
    title: 'Top up', intro: 'Redeem a code you were given: its value is added to your account\u2019s balance at once. Each code works once.',
    balance: 'Balance', used: '{used} used', account: 'Account {account}',
    code: 'Redemption code', codeHint: 'Upper or lower case, with or without the dashes.', redeem: 'Redeem',
    redeemed: 'Redeemed: {credited} added to account {account}.', redeemedNoAccount: 'Redeemed: {credited} added to your account.',
    balanceNow: 'Balance now', throttled: 'Too many wrong codes. You can try again in {seconds} s.',
    waiting: 'Wait {seconds} s',
  },
  'zh-CN': {
    title: '充值', intro: '兑换你收到的兑换码：其面值会立即加到账户余额中。每个兑换码只能使用一次。',
    balance: '余额', used: '已用 {used}', account: '账户 {account}',
    code: '兑换码', codeHint: '不区分大小写，可带或不带短横线。', redeem: '兑换',
    redeemed: '兑换成功：已向账户 {account} 充值 {credited}。', redeemedNoAccount: '兑换成功：已向你的账户充值 {credited}。',
    balanceNow: '当前余额', throttled: '错误的兑换码过多。请在 {seconds} 秒后重试。',
    waiting: '请等待 {seconds} 秒',
  },
});

export function TopUpPage() {
  const t = useT(WORDS);
  const account = useApi('getAccount');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState<Answer<'redeemCode'> | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const wait = useCountdown(waitUntil);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const answer = await call('redeemCode', { body: { code: code.trim() } });
      setCode('');
      setDone(answer);
      void account.reload(true);
    } catch (failure) {
      setError(failure as Error);
      if (failure instanceof ApiError && failure.retryAfter) setWaitUntil(Date.now() + failure.retryAfter * 1000);
    } finally {
      setBusy(false);
    }
  };

  const balance = done?.balance ?? account.data?.account.balance.remaining;
  const used = account.data?.account.balance.used;
  const throttled = error instanceof ApiError && error.status === 429;
  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <div class="grid stats">
        <Stat label={t('balance')} testId="topup-balance" value={balance ? usd(balance) : '\u2014'}
          sub={used ? `${t('used', { used: usd(used) })}${account.data?.account.name ? ` \u00b7 ${t('account', { account: account.data.account.name })}` : ''}` : undefined} />
      </div>
      {account.error && <ErrorAlert error={account.error} onRetry={() => void account.reload()} />}
      <Card>
        {done && (
          <div id="redeem-done">
            <Alert kind="success" title={<span id="redeem-credited">{done.account ? t('redeemed', { credited: usd(done.credited), account: done.account }) : t('redeemedNoAccount', { credited: usd(done.credited) })}</span>}>
              <p>{t('balanceNow')}: <strong id="redeem-balance">{usd(done.balance)}</strong></p>
            </Alert>
          </div>
        )}
        {throttled && wait > 0
          ? <Alert kind="error" title={t('throttled', { seconds: wait })}><p class="error-message">{error.message}</p></Alert>
          : <ErrorAlert error={error} />}
        <form id="redeem-form" class="narrow-form" onSubmit={submit} autoComplete="off">
          <TextField id="redeem-code" label={t('code')} hint={t('codeHint')} value={code} onValue={setCode} required maxLength={128}
            placeholder="MGC-XXXX-XXXX-XXXX-XXXX-XXXX" spellcheck={false} autoCapitalize="characters" autoComplete="off" />
          <Button type="submit" variant="primary" id="redeem-button" busy={busy} disabled={wait > 0}>{wait > 0 ? t('waiting', { seconds: wait }) : t('redeem')}</Button>
        </form>
      </Card>
    </>
  );
}
