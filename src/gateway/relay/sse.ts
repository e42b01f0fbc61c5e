/**
 * The relay's reading of an upstream's event stream: the contract's decoder (src/contract/sse.ts),
 * with the relay's rule for the end of the body. An event not closed by a blank line is discarded,
 * as the SSE spec says: an upstream that dies mid-event did not send that event. The one tolerated
 * exception is a bare final `[DONE]`, which still ends the stream.
 */
import { SseDecoder as WireDecoder, type SseItem } from '../../contract/sse.ts';

export type { SseItem } from '../../contract/sse.ts';

export class SseDecoder extends WireDecoder {
  override end(): readonly SseItem[] {
    const items = super.end();
    const last = items[items.length - 1];
    if (last?.type !== 'event' || !last.unterminated) return items;
    const kept = items.slice(0, -1);
    if (last.data === '[DONE]') kept.push({ type: 'event', event: last.event, data: last.data, id: last.id, retry: last.retry });
    return kept;
  }
}
