/**
 * The relay's rule for the end of an upstream's event stream: an event not closed by a blank line is
 * discarded, as the SSE spec says (an upstream that dies mid-event did not send that event). The one
 * tolerated exception is a bare final `[DONE]`, which still ends the stream.
 */
import type { SseItem } from '../../contract/index.ts';

export function closedItems(items: readonly SseItem[]): readonly SseItem[] {
  const last = items[items.length - 1];
  if (last?.type !== 'event' || !last.unterminated) return items;
  const kept = items.slice(0, -1);
  if (last.data === '[DONE]') kept.push({ type: 'event', event: last.event, data: last.data, id: last.id, retry: last.retry });
  return kept;
}
