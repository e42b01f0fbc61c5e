/**
 * Upstream words reach clients and logs (a 400's message, an error event's text), and upstreams echo
 * what they were sent: "Incorrect API key provided: sk-proj-abc...". Before any of it leaves the
 * relay, the channel's own key and anything shaped like a key or a bearer token is blanked.
 */
import type { Channel } from './types.ts';

const REDACTED = '[redacted]';
/** Key-shaped tokens (sk-..., sk-ant-..., partly masked ones too) and Authorization values. */
const KEY_SHAPED = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-*]{6,}(?:\.[A-Za-z0-9_\-*]+)*|\bBearer\s+[^\s"',]+/gi;

export function redact(text: string, channel: Pick<Channel, 'apiKey'>): string {
  let out = channel.apiKey && channel.apiKey.length >= 4 ? text.replaceAll(channel.apiKey, REDACTED) : text;
  out = out.replace(KEY_SHAPED, REDACTED);
  return out;
}
