/** GET /v1/models (contract 4.2), in OpenAI's list shape. */
import { z } from 'zod';

export const ModelEntry = z.looseObject({
  id: z.string().min(1),
  object: z.string().optional(),
  created: z.number().optional(),
  owned_by: z.string().optional(),
  /** Ours, beside OpenAI's fields: which endpoint the model is for (absent from other gateways: treat as chat). */
  kind: z.string().optional(),
});
export type ModelEntry = z.infer<typeof ModelEntry>;

export const ModelList = z.looseObject({
  object: z.string().optional(),
  data: z.array(ModelEntry),
});
export type ModelList = z.infer<typeof ModelList>;

/** Models a chat client can talk to: those of kind chat, and those whose gateway does not say. */
export function isChatModel(entry: ModelEntry): boolean {
  return entry.kind === undefined || entry.kind === 'chat';
}

/** `owned_by` of models served by the built-in offline echo channel. */
export const ECHO_OWNER = 'model-gateway-echo';
