/**
 * A model's maximum output tokens (ModelRecord.maxOutputTokens): the relay lowers any larger cap to it. Its own
 * column on both SQL stores (NULL: none), in bounds the database itself holds (MODEL_LIMITS.maxOutputTokens).
 * Unlike the model's other optional numbers it can be removed, so its upsert says whether it was given.
 */
import { MODEL_LIMITS } from '../../contract/index.ts';

const { min, max } = MODEL_LIMITS.maxOutputTokens;

/** SQLite's migration 24 and PostgreSQL's 17. */
export const MAX_OUTPUT_TOKENS_COLUMN = `ALTER TABLE models ADD COLUMN max_output_tokens INTEGER
  CHECK (max_output_tokens IS NULL OR (max_output_tokens >= ${min} AND max_output_tokens <= ${max}));`;

/**
 * The column's part of the models upsert: `given` is the placeholder of a 1/0 flag (1: set the value, null
 * included; 0: keep the stored one). Every other optional number keeps its value on a null (COALESCE).
 */
export function maxOutputUpdate(given: string): string {
  return `max_output_tokens = CASE WHEN ${given} = 1 THEN excluded.max_output_tokens ELSE models.max_output_tokens END`;
}
