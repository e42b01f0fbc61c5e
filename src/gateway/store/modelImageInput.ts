/**
 * Whether a model takes images as input (ModelRecord.imageInput): VS Code's chat lets users attach images
 * (screenshots) only to a model that says so, and the extension reads it from GET /v1/models. Its own column
 * on both SQL stores, a flag as each stores one (as tool_calling is), NULL: not said. The models upsert
 * keeps the stored value when a new price does not say (COALESCE, sqlRows.ts modelUpsert).
 */

/** SQLite's migration 25: 1 yes, 0 no. */
export const SQLITE_IMAGE_INPUT_COLUMN = 'ALTER TABLE models ADD COLUMN image_input INTEGER CHECK (image_input IS NULL OR image_input IN (0, 1));';

/** PostgreSQL's migration 18. */
export const POSTGRES_IMAGE_INPUT_COLUMN = 'ALTER TABLE models ADD COLUMN image_input BOOLEAN;';
