/**
 * POST /v1/messages/count_tokens: Anthropic's token count for a Messages request, which Claude Code
 * sends by the dozen as it starts. Answered here, cheaply: the key must be valid and may use the
 * model, but the count is free, does not count against the key's request rate, and is not logged.
 */
import { CountTokensRequest } from '../../contract/index.ts';
import { parseJsonBody, readBody } from '../http/body.ts';
import { HttpError } from '../http/errors.ts';
import { writeJson } from '../relay/respond.ts';
import { estimatePromptTokensOfMessages } from '../relay/estimate.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import { requireKey } from './common.ts';
import { describeIssue, wrongEndpoint } from './relayed.ts';

export async function countTokens(gw: Gateway, ctx: RequestContext): Promise<void> {
  ctx.noLog = true;
  const key = await requireKey(gw, ctx, false);
  const parsed = CountTokensRequest.safeParse(parseJsonBody(await readBody(ctx.req, gw.body, ctx.started)));
  if (!parsed.success) throw new HttpError('invalid_request', describeIssue(parsed.error, 'Messages'));
  const { model } = parsed.data;
  const found = gw.catalog.lookup(model);
  if (found.kind === 'unknown') throw new HttpError('model_not_found', `Requested: "${model}".`);
  if (found.kind === 'known' && found.model.kind !== 'chat') throw wrongEndpoint(model, found.model.kind);
  if (key.models && !key.models.includes(model)) throw new HttpError('model_not_permitted', `Requested: "${model}".`);
  writeJson({ res: ctx.res, requestId: ctx.id }, 200, JSON.stringify({ input_tokens: estimatePromptTokensOfMessages(parsed.data) }));
}
