import { MODEL_KINDS, type ModelKind } from './values.ts';

/** Upstream channel types: how the gateway talks to a channel's upstream (one provider each). */
export const CHANNEL_TYPES = ['openai', 'anthropic', 'echo'] as const;

export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The kinds of model each channel type can serve: Anthropic's API has chat models only. */
export const KINDS_OF_CHANNEL_TYPE: Readonly<Record<ChannelType, readonly ModelKind[]>> = { openai: MODEL_KINDS, anthropic: ['chat'], echo: MODEL_KINDS };

export function channelServesKind(type: ChannelType, kind: ModelKind): boolean {
  return KINDS_OF_CHANNEL_TYPE[type].includes(kind);
}

export function isChannelType(value: unknown): value is ChannelType {
  return typeof value === 'string' && (CHANNEL_TYPES as readonly string[]).includes(value);
}
