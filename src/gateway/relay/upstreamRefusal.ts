/**
 * What an upstream's failed answer says, for the operator: its own words (short, secrets masked), and
 * what a 403 is about. A 401 is always the channel's key. A 403 may be the key too (revoked, no
 * permission, an account or bill to settle), or the request (a content policy flagged it: OpenRouter's
 * moderation answers 403), or something of the channel's (a region the upstream does not serve). Only
 * the key's disables the channel: any client could otherwise switch a channel off for everyone with a
 * prompt the upstream's moderation refuses.
 */
import { channelSecrets, errorMessageOf, redactSecrets } from '../../contract/index.ts';
import type { Channel } from './types.ts';

/** The most of an upstream's words kept in an attempt's reason (log rows, the operator's log, channel health). */
const REASON_CHARS = 200;
/** How far past REASON_CHARS the words are masked before they are cut: longer than any secret in any of its forms. */
const MASKED_BEYOND = 2048;

/**
 * What passes, or holds for one model or place only, whatever else the words name: a quota that refills, a model
 * the organization must be verified for (OpenAI's gpt-image-1), a resource blocked for a while, a region.
 */
const ABOUT_CHANNEL = /\b(replenish\w*|limit exceeded|rate[\s_-]?limit\w*|try again later|temporarily|must be verified|verif(y|ied|ication) \w+ (to|for) (use|access)|country|region|territory|location)\b/i;
const ABOUT_REQUEST = /\b(flagged|moderation|content[\s_-]?(policy|filter|management))\b/i;
const ABOUT_KEY = /\b(api[\s_-]?keys?|keys?|tokens?|credentials?|unauthori[sz]ed|authenticat\w*|accounts?|organi[sz]ations?|billing|payment|subscriptions?|deactivated|suspended|revoked|expired|banned)\b/i;

export type ForbiddenAbout = 'key' | 'request' | 'channel';

/**
 * What a 403's words say it is about. What passes or holds for one model only is the channel's (failover, its
 * health), checked first: disabling a channel for it would take every model it serves away until an operator came.
 */
export function forbiddenAbout(words: string): ForbiddenAbout {
  if (ABOUT_CHANNEL.test(words)) return 'channel';
  if (ABOUT_REQUEST.test(words)) return 'request';
  return ABOUT_KEY.test(words) ? 'key' : 'channel';
}

/** An upstream body's message (its error's message when JSON, else the text), one line, short, with the channel's secrets masked. */
export function upstreamReason(body: string, channel: Channel): string {
  let words: string;
  try {
    words = errorMessageOf(JSON.parse(body)) ?? body;
  } catch {
    words = body;
  }
  // Only the start is masked and kept: a secret that reaches into the first REASON_CHARS is whole within it.
  const line = redactSecrets(words.replace(/\s+/g, ' ').trim().slice(0, REASON_CHARS + MASKED_BEYOND), channelSecrets(channel));
  return line.length <= REASON_CHARS ? line : `${line.slice(0, REASON_CHARS)}…`;
}
