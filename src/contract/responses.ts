/**
 * The OpenAI Responses API (POST /v1/responses): the one wire format the Codex CLI speaks to a custom
 * provider. Loose objects; served statelessly, so a request must carry its whole conversation.
 */
import { z } from 'zod';
import { ModelName } from './kinds.ts';
import { MAX_REQUEST_LIST } from './values.ts';
import { listOf } from './lists.ts';

/** An input item: a message ({role, content}, `type` optional), a function_call, a function_call_output, a reasoning item, ... */
export const ResponsesItem = z.looseObject({ type: z.string().optional(), role: z.string().optional() });
export type ResponsesItem = z.infer<typeof ResponsesItem>;

export const ResponsesRequest = z.looseObject({
  model: ModelName,
  input: z.union([z.string(), listOf(ResponsesItem, MAX_REQUEST_LIST)]),
  instructions: z.string().nullish(),
  tools: listOf(z.looseObject({ type: z.string() }), MAX_REQUEST_LIST).optional(),
  stream: z.boolean().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  previous_response_id: z.string().nullish(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;
