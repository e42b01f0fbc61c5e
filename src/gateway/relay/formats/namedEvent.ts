/**
 * The first step of reading a stream of named events (Messages, Responses): an empty event is
 * skipped, one that is not a JSON object is a problem, any other has its type (the `type` field,
 * else the SSE event name) and goes on as an UpstreamEvent.
 */
import { parseObject } from './openaiStream.ts';
import type { RelayUsage } from '../types.ts';
import type { StreamRead, StreamReader, UpstreamEvent } from './types.ts';

export interface NamedEvent {
  readonly type: string | null;
  readonly event: UpstreamEvent;
}

function namedEvent(name: string | null, data: string): NamedEvent | Extract<StreamRead, { kind: 'skip' | 'problem' }> {
  if (data.trim() === '') return { kind: 'skip' };
  const json = parseObject(data);
  if (!json) return { kind: 'problem', detail: 'upstream sent a malformed event' };
  const type = typeof json['type'] === 'string' ? json['type'] : name;
  return { type, event: { event: name ?? type, data, json } };
}

/** A reader of named events: the first step done here, each format's meaning in onEvent. */
export abstract class NamedEventReader implements StreamReader {
  generatedChars = 0;

  read(name: string | null, data: string): StreamRead {
    const read = namedEvent(name, data);
    return 'event' in read ? this.onEvent(read.type, read.event) : read;
  }

  protected abstract onEvent(type: string | null, event: UpstreamEvent): StreamRead;
  abstract usage(): RelayUsage | null;
  abstract complete(): boolean;
  abstract cutEvents(usage: RelayUsage): UpstreamEvent[];
}
