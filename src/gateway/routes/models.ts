/** GET /v1/models (contract 4.2): OpenAI's list shape, exactly the models this key may use. */
import { ECHO_OWNER } from '../../contract/index.ts';
import { sendJson } from '../http/json.ts';
import { requireKey } from './common.ts';
import type { Handler } from './common.ts';

export const OWNER = 'model-gateway';

export const models: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx);
  const data = gw.catalog.modelsForKey(key).map(({ name, channel, model }) => ({
      id: name,
      object: 'model',
      created: Math.floor(channel.createdAt / 1000),
      owned_by: channel.type === 'echo' ? ECHO_OWNER : OWNER,
      kind: model?.kind ?? 'chat',
      ...(model?.contextLength ? { context_length: model.contextLength } : {}),
      ...(model?.toolCalling !== null && model?.toolCalling !== undefined ? { capabilities: { tool_calling: model.toolCalling } } : {}),
      pricing: model?.kind === 'image'
        ? {
            per_image_usd: (model.imagePrice ?? 0) / 1e6,
            ...(model.imagePrices && Object.keys(model.imagePrices).length > 0
              ? { per_image_usd_by_variant: Object.fromEntries(Object.entries(model.imagePrices).map(([variant, price]) => [variant, price / 1e6])) }
              : {}),
          }
        : {
            input_per_million_usd: (model?.inputPrice ?? 0) / 1e6,
            output_per_million_usd: (model?.outputPrice ?? 0) / 1e6,
            ...(typeof model?.cachedInputPrice === 'number' ? { cached_input_per_million_usd: model.cachedInputPrice / 1e6 } : {}),
            ...(typeof model?.cacheWritePrice === 'number' ? { cache_write_per_million_usd: model.cacheWritePrice / 1e6 } : {}),
          },
    }));
  sendJson(ctx.res, ctx.id, 200, { object: 'list', data });
};
