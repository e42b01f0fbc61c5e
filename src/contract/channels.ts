/** Upstream channel types: how the gateway talks to a channel's upstream (one provider each). */
export const CHANNEL_TYPES = ['openai', 'anthropic', 'echo'] as const;

export type ChannelType = (typeof CHANNEL_TYPES)[number];

export function isChannelType(value: unknown): value is ChannelType {
  return typeof value === 'string' && (CHANNEL_TYPES as readonly string[]).includes(value);
}
