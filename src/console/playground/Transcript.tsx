/**
 * The playground's conversation as it is shown: each turn with who said it, its text as text (never HTML,
 * line breaks kept, long words wrapped), and under each answer what it cost and took, or how it ended. The
 * list is a live region, so a screen reader hears the answer once it is written.
 */
import { moneyOf } from '../dashboard/model.ts';
import { reasonOf } from '../i18n/errorWords.ts';
import { useFormat } from '../i18n/format.ts';
import { useLang, useT } from '../i18n/lang.ts';
import type { AnswerStats, PlaygroundTurn } from './conversation.ts';
import { PLAYGROUND_WORDS } from './playgroundWords.ts';

function Stats({ stats }: { readonly stats: AnswerStats }) {
  const t = useT(PLAYGROUND_WORDS);
  const f = useFormat();
  const times = { first: f.ms(stats.firstTokenMs), total: f.ms(stats.totalMs) };
  const text = stats.promptTokens === null || stats.completionTokens === null
    ? t('statsNoUsage', times)
    : t('stats', { ...times, prompt: f.number(stats.promptTokens), completion: f.number(stats.completionTokens), cost: stats.cost === null ? '\u2014' : f.usd(moneyOf(Math.round(stats.cost * 1_000_000))) });
  return <p class="turn-stats muted small" data-testid="answer-stats">{text}</p>;
}

function TurnView({ turn }: { readonly turn: PlaygroundTurn }) {
  const t = useT(PLAYGROUND_WORDS);
  const { lang } = useLang();
  return (
    <li class={`turn ${turn.role}`} data-role={turn.role} aria-busy={turn.writing ? true : undefined}>
      <div class="turn-who">{turn.role === 'user' ? t('you') : t('assistant')}{turn.writing && <span class="muted small"> · {t('writing')}</span>}</div>
      <div class="turn-text" data-testid={turn.role === 'assistant' ? 'answer-text' : undefined}>{turn.content}</div>
      {turn.stopped && <p class="muted small">{t('stopped')}</p>}
      {turn.failure && (
        <div class="alert error" role="alert">
          <strong class="alert-title">{t('streamError')}</strong>
          {lang !== 'en' && <p class="error-message">{reasonOf(turn.failure.code, 502, lang)}</p>}
          <p class="error-message">{turn.failure.message}</p>
          <p class="muted small"><code>{turn.failure.code}</code></p>
        </div>
      )}
      {turn.stats && <Stats stats={turn.stats} />}
    </li>
  );
}

export function Transcript({ turns }: { readonly turns: readonly PlaygroundTurn[] }) {
  const t = useT(PLAYGROUND_WORDS);
  if (turns.length === 0) return <p class="empty">{t('empty')}</p>;
  return (
    <ol class="transcript" id="playground-transcript" aria-live="polite" aria-label={t('conversation')}>
      {turns.map((turn, i) => <TurnView key={i} turn={turn} />)}
    </ol>
  );
}
