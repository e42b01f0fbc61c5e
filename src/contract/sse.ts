/** Server-sent events as the contract's streams carry them: what a decoder (src/wire/sse.ts) yields. */

export interface SseEventItem {
  readonly type: 'event';
  /** The `event:` field, or null for the default ("message"). */
  readonly event: string | null;
  /** `data:` lines joined with `\n`. */
  readonly data: string;
  /** The last event id seen on the stream when this event was dispatched (it persists across events). */
  readonly id: string | null;
  /** The last `retry:` value seen on the stream. */
  readonly retry: number | null;
  /** Only from `end()`: the body ended before the blank line that closes this event. */
  readonly unterminated?: true;
}

export interface SseCommentItem {
  readonly type: 'comment';
  /** What follows the `:`, unchanged. */
  readonly text: string;
}

export type SseItem = SseEventItem | SseCommentItem;
