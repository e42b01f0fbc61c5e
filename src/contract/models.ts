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

/** Names of models that are not chat models (embeddings, speech, images, moderation, reranking), for gateways that send no `kind`. */
const NON_CHAT = /(^|[-_/.:])(text-embedding|embedding|embed|tts|whisper|dall-e|gpt-image|imagen|stable-diffusion|sdxl|flux|midjourney|moderation|rerank)([-_/.:]|\d|$)/i;

/** Models a chat client can talk to: of kind chat when the gateway says (ours does), else judged by name. */
export function isChatModel(entry: ModelEntry): boolean {
  return entry.kind !== undefined ? entry.kind === 'chat' : !NON_CHAT.test(entry.id);
}

/** `owned_by` of models served by the built-in offline echo channel. */
export const ECHO_OWNER = 'model-gateway-echo';
