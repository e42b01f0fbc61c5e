/** The `echo` channel serves every kind offline and deterministically: one file per operation. */
import type { AttemptContext, AttemptResult } from '../../relay/attempt.ts';
import { echoChat } from './chat.ts';
import { echoCompletion } from './completion.ts';
import { echoEmbedding } from './embedding.ts';
import { echoImage } from './image.ts';

export function echoAttempt(ctx: AttemptContext): Promise<AttemptResult> {
  const { request } = ctx;
  switch (request.operation) {
    case 'chat':
    case 'messages':
    case 'responses':
      return echoChat(ctx);
    case 'completion':
      return echoCompletion(ctx, request.body);
    case 'embedding':
      return Promise.resolve(echoEmbedding(ctx, request.body));
    case 'image':
      return Promise.resolve(echoImage(ctx, request.body));
  }
}
