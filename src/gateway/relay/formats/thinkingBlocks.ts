/**
 * An Anthropic model's signed thinking, carried through a Responses client and back. Anthropic checks each thinking
 * block's signature against its text on the next turn, so the blocks must come back exactly as they came: they go
 * out as the reasoning item's `encrypted_content` (an opaque string to a Responses client, which sends it back on
 * the next turn, as the Codex CLI does), and a reasoning item whose `encrypted_content` is ours becomes those
 * blocks again in the assistant turn it belongs to. On the way through chat completions they ride in the
 * assistant message's `thinking_blocks`, LiteLLM's name for them, only between the gateway's own converters.
 */
type Json = Record<string, unknown>;

/** A thinking block as Anthropic signs it: text and signature, or redacted data. */
export type ThinkingBlock = { readonly type: 'thinking'; readonly thinking: string; readonly signature: string } | { readonly type: 'redacted_thinking'; readonly data: string };

/** Marks an `encrypted_content` the gateway wrote, so another's (OpenAI's own) is never read as thinking. */
const PREFIX = 'mg-thinking-v1.';

/** The signed thinking blocks among `blocks` (a thinking block without a signature cannot go back). */
export function signedThinkingOf(blocks: unknown): ThinkingBlock[] {
  if (!Array.isArray(blocks)) return [];
  return (blocks as Json[]).flatMap((b): ThinkingBlock[] => {
    if (b?.['type'] === 'thinking' && typeof b['thinking'] === 'string' && typeof b['signature'] === 'string' && b['signature'] !== '') {
      return [{ type: 'thinking', thinking: b['thinking'], signature: b['signature'] }];
    }
    if (b?.['type'] === 'redacted_thinking' && typeof b['data'] === 'string') return [{ type: 'redacted_thinking', data: b['data'] }];
    return [];
  });
}

export function encryptedContentOf(blocks: readonly ThinkingBlock[]): string {
  return PREFIX + Buffer.from(JSON.stringify(blocks)).toString('base64');
}

/**
 * A Responses input without the reasoning items whose `encrypted_content` the gateway wrote (an Anthropic model's
 * thinking): for an upstream with the Responses API, which would refuse them as content it cannot verify (a
 * conversation that moved from an anthropic channel to it). The input itself when it holds none.
 */
export function withoutOwnThinking(input: unknown): unknown {
  if (!Array.isArray(input)) return input;
  const own = (item: unknown): boolean => {
    const it = item as Json | null;
    return it?.['type'] === 'reasoning' && typeof it['encrypted_content'] === 'string' && it['encrypted_content'].startsWith(PREFIX);
  };
  return input.some(own) ? input.filter((item) => !own(item)) : input;
}

/** The thinking blocks a reasoning item's `encrypted_content` holds; none when it is not the gateway's. */
export function thinkingOfEncryptedContent(encrypted: unknown): ThinkingBlock[] {
  if (typeof encrypted !== 'string' || !encrypted.startsWith(PREFIX)) return [];
  try {
    return signedThinkingOf(JSON.parse(Buffer.from(encrypted.slice(PREFIX.length), 'base64').toString('utf8')));
  } catch {
    return [];
  }
}
