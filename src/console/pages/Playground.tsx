/**
 * #/playground: chat with a model from the browser (issue 10) to check it before configuring a tool. The
 * person picks a chat model open to the account (the catalogue), may give a system prompt, and talks in
 * turns; each answer streams in as it is written (POST /api/console/playground/chat, read event by event)
 * and can be stopped. Each is a real request of the account's Playground key: charged, limited and logged
 * like any other, its tokens, cost and times shown under it. The browser holds no API key.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PLAYGROUND_KEY_NAME } from '../../contract/values.ts';
import { call, callStream } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { readChunk, requestOf, type AnswerStats, type StreamFailure, type PlaygroundTurn } from '../playground/conversation.ts';
import { PLAYGROUND_WORDS } from '../playground/playgroundWords.ts';
import { Transcript } from '../playground/Transcript.tsx';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { SelectField, TextAreaField } from '../ui/fields.tsx';
import { Card, PageHeader } from '../ui/Page.tsx';
import { useApi } from '../useApi.ts';
import '../styles/playground.css';

/** The answer being written, as it grows. */
interface Writing {
  text: string;
  usage: { prompt: number; completion: number; cost: number | null } | null;
  failure: StreamFailure | null;
  firstTokenAt: number | null;
}

/** What a request was charged, from its log row (written within moments of its end); null when it does not come. */
async function chargedFor(requestId: string): Promise<Pick<AnswerStats, 'promptTokens' | 'completionTokens' | 'cost'> | null> {
  for (let tries = 0; tries < 10; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const row = (await call('listAccountLogs', { query: { request_id: requestId, limit: 1 } }).catch(() => null))?.data[0];
    if (row) return { promptTokens: row.prompt_tokens, completionTokens: row.completion_tokens, cost: row.cost.micro_usd / 1_000_000 };
  }
  return null;
}

export function PlaygroundPage() {
  const t = useT(PLAYGROUND_WORDS);
  const catalogue = useApi('listModels');
  const chatModels = useMemo(() => (catalogue.data?.data ?? []).filter((m) => m.kind === 'chat').map((m) => m.name), [catalogue.data]);
  const [model, setModel] = useState('');
  const [system, setSystem] = useState('');
  const [message, setMessage] = useState('');
  const [turns, setTurns] = useState<PlaygroundTurn[]>([]);
  const [error, setError] = useState<Error | null>(null);
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `${t('title')} · Model Gateway`;
  }, [t('title')]);
  useEffect(() => {
    if (!chatModels.includes(model) && chatModels.length > 0) setModel(chatModels[0]!);
  }, [chatModels]);
  // Leaving the page stops an answer still arriving.
  useEffect(() => () => running.current?.abort(), []);

  /** Shows the answer as it is so far, in place of the last turn. */
  const showAnswer = (answer: PlaygroundTurn): void => setTurns((all) => [...all.slice(0, -1), answer]);

  const send = async (): Promise<void> => {
    const text = message.trim();
    if (!text || !model || running.current) return;
    const asked: PlaygroundTurn[] = [...turns, { role: 'user', content: text }];
    const body = requestOf(model, system, asked);
    setTurns([...asked, { role: 'assistant', content: '', writing: true }]);
    setMessage('');
    setError(null);
    setBusy(true);
    const controller = new AbortController();
    running.current = controller;
    const started = performance.now();
    const w: Writing = { text: '', usage: null, failure: null, firstTokenAt: null };
    let requestId: string | null = null;
    const statsNow = (): AnswerStats => ({
      promptTokens: w.usage?.prompt ?? null, completionTokens: w.usage?.completion ?? null, cost: w.usage?.cost ?? null,
      firstTokenMs: w.firstTokenAt === null ? null : w.firstTokenAt - started, totalMs: performance.now() - started,
    });
    try {
      await callStream('playgroundChat', { body, signal: controller.signal }, (data) => {
        const news = readChunk(data);
        if (news.text) {
          w.firstTokenAt ??= performance.now();
          w.text += news.text;
        }
        if (news.usage) w.usage = news.usage;
        if (news.failure) w.failure = news.failure;
        showAnswer({ role: 'assistant', content: w.text, writing: true });
      }, (res) => (requestId = res.headers.get('X-Request-Id')));
      showAnswer({ role: 'assistant', content: w.text, ...(w.failure ? { failure: w.failure } : {}), stats: statsNow() });
    } catch (failure) {
      if (controller.signal.aborted) {
        const stopped = { role: 'assistant', content: w.text, stopped: true, stats: statsNow() } as const;
        showAnswer(stopped);
        // A stopped answer sends no usage, but it was charged: the request's log row says what for.
        if (requestId && !w.usage) void chargedFor(requestId).then((charged) => charged && setTurns((all) => all.map((turn) => (turn.stats === stopped.stats ? { ...turn, stats: { ...turn.stats, ...charged } } : turn))));
      } else {
        // Refused before anything was written: the question stays in the box to send again, the answer goes.
        setTurns(turns);
        setMessage(text);
        setError(failure as Error);
      }
    } finally {
      running.current = null;
      setBusy(false);
    }
  };

  const submit = (e: Event): void => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  };
  const clear = (): void => {
    running.current?.abort();
    setTurns([]);
    setError(null);
  };

  return (
    <>
      <PageHeader title={t('title')} description={t('intro', { key: PLAYGROUND_KEY_NAME })} />
      <ErrorAlert error={catalogue.error} onRetry={() => void catalogue.reload()} />
      {catalogue.data && chatModels.length === 0 && <p class="empty">{t('noModels')}</p>}
      <div class="playground">
        <Card>
          <div class="form-grid">
            <SelectField id="playground-model" label={t('model')} value={model} onValue={setModel} options={chatModels.map((name) => [name, name] as const)} />
            <div class="span-all">
              <TextAreaField id="playground-system" label={t('system')} value={system} onValue={setSystem} placeholder={t('systemPlaceholder')} rows={2} />
            </div>
          </div>
        </Card>
        <Card title={t('conversation')} actions={<Button id="playground-clear" small onClick={clear} disabled={turns.length === 0}>{t('clear')}</Button>}>
          <Transcript turns={turns} />
          <ErrorAlert error={error} />
          <form id="playground-form" onSubmit={submit}>
            <TextAreaField id="playground-message" label={t('message')} hint={t('sendHint')} value={message} onValue={setMessage}
              placeholder={t('messagePlaceholder')} rows={3} onKeyDown={onKeyDown} />
            <div class="actions-row">
              <Button type="submit" variant="primary" id="playground-send" disabled={busy || !model || !message.trim()}>{t('send')}</Button>
              {busy && <Button id="playground-stop" onClick={() => running.current?.abort()}>{t('stop')}</Button>}
            </div>
          </form>
        </Card>
      </div>
    </>
  );
}
