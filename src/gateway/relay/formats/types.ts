/**
 * Wire formats and the seam between them. A request arrives in its client's format (chat
 * completions, Messages, ...) and goes upstream in the format its channel speaks; a Translation
 * (translation.ts) says how the answer comes back, JSON or event by
 * event. When both sides speak the same format the answer passes through as it came (only the
 * model name is put in), which is the hot path.
 */
import type { RelayRequest, RelayUsage } from '../types.ts';

/** The formats a request can arrive in: the relay's operations. */
export type ClientFormat = RelayRequest['operation'];

/** The formats an upstream can speak. */
export type UpstreamFormat = 'chat' | 'completion' | 'embedding' | 'image' | 'messages' | 'responses';

/** One event of an upstream's stream, parsed once. */
export interface UpstreamEvent {
  /** The SSE `event:` name (Messages streams name every event; OpenAI's name none). */
  readonly event: string | null;
  /** The event's data as it came: passed on unchanged where the formats match. */
  readonly data: string;
  readonly json: Record<string, unknown>;
}

/** What one upstream event means to the relay. */
export type StreamRead =
  | { readonly kind: 'skip' }
  | { readonly kind: 'event'; readonly event: UpstreamEvent }
  /** The upstream's own end of a complete answer ([DONE], message_stop): `event` still goes to the shaper when there is one. */
  | { readonly kind: 'end'; readonly event?: UpstreamEvent }
  | { readonly kind: 'problem'; readonly detail: string };

/** Reads an upstream's stream (one per answer): its events, its usage, and how much text it generated. */
export interface StreamReader {
  read(event: string | null, data: string): StreamRead;
  /** The usage the upstream reported so far, or null. */
  usage(): RelayUsage | null;
  /** Characters generated so far, for an estimate when the upstream reports no usage. */
  readonly generatedChars: number;
  /**
   * The answer is whole although the stream closed before its end marker: the upstream sent its
   * finish reason and its usage, and only the marker ([DONE], message_stop) is missing.
   */
  complete(): boolean;
  /**
   * The upstream events that would end this answer at its length limit (finish_reason "length",
   * stop_reason "max_tokens", response.incomplete), for the gateway to end it there itself when the
   * upstream streams past the cap it was sent. Fed to the shaper like the upstream's own.
   */
  cutEvents(usage: RelayUsage): UpstreamEvent[];
}

/** An upstream event the gateway writes itself (cutEvents). */
export function syntheticEvent(event: string | null, json: Record<string, unknown>): UpstreamEvent {
  return { event, data: JSON.stringify(json), json };
}

/** Writes the client's stream from the upstream's events (one per answer). */
export interface StreamShaper {
  /** The client's text for one upstream event ('' for none). */
  event(event: UpstreamEvent): string;
  /** The client's text that completes the answer, once the upstream ended it. */
  finish(usage: RelayUsage): string;
}

/** A request that cannot be converted to its upstream's format (an Anthropic server tool for an OpenAI-style upstream, ...): the client's to fix, a 400. */
export class ConversionError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ConversionError';
  }
}

/**
 * A client's request converted to its upstream's format. The formats' schemas are loose (unknown fields pass through),
 * so a converter can meet what the client's format does not allow (a null where a tool or a content part belongs):
 * what it cannot read is the request's fault, a ConversionError (400), never the gateway's (500).
 */
export function convertRequest<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof RangeError) throw new ConversionError('the request nests too deep to be converted for this model\'s channel (a tool call\'s arguments, say)', error);
    if (!(error instanceof TypeError)) throw error;
    throw new ConversionError(`the request holds an item its format does not allow (a null or a wrong type where an object belongs), so it cannot be converted for this model's channel (${error.message})`, error);
  }
}

/**
 * An upstream's answer (or event) read and written in the client's format: what a converter cannot read in it (a
 * null where a block belongs, or nesting too deep to write again) is the upstream's fault, an unusable answer
 * (upstream_error, 502), never a 500.
 */
export function unreadableAnswer(error: unknown): string | null {
  return error instanceof TypeError || error instanceof RangeError ? `the upstream answer holds an item its format does not allow (${error.message})` : null;
}
