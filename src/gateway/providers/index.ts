/**
 * The providers: how the relay talks to each type of upstream channel, one folder per type. A new
 * upstream type is one new folder and one line here.
 */
import type { ChannelType } from '../../contract/index.ts';
import type { Attempt } from '../relay/attempt.ts';
import { anthropicAttempt } from './anthropic/attempt.ts';
import { echoAttempt } from './echo/attempt.ts';
import { openaiAttempt } from './openai/attempt.ts';

export type ProviderTable = Readonly<Record<ChannelType, Attempt>>;

export const PROVIDERS: ProviderTable = {
  openai: openaiAttempt,
  anthropic: anthropicAttempt,
  echo: echoAttempt,
};
