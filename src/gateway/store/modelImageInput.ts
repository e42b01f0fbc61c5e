/**
 * Whether a model takes images as input (ModelRecord.imageInput): VS Code's chat lets users attach images
 * (screenshots) only to a model that says so, and the extension reads it from GET /v1/models. Its own column
 * on both SQL stores, a flag as each stores one (as tool_calling is), NULL: not said. The models upsert
 * keeps the stored value when a new price leaves it out, and writes a null given (an operator's "not said").
 */

/** The column's part of the models upsert: `given` is the placeholder of a 1/0 flag (1: set it, null included). */
export function imageInputUpdate(given: string): string {
  return `image_input = CASE WHEN ${given} = 1 THEN excluded.image_input ELSE models.image_input END`;
}

/** SQLite's migration 25: 1 yes, 0 no. */
export const SQLITE_IMAGE_INPUT_COLUMN = 'ALTER TABLE models ADD COLUMN image_input INTEGER CHECK (image_input IS NULL OR image_input IN (0, 1));';

/** PostgreSQL's migration 18. */
export const POSTGRES_IMAGE_INPUT_COLUMN = 'ALTER TABLE models ADD COLUMN image_input BOOLEAN;';

/**
 * The built-in echo model takes images (it counts them), and a new data folder says so; one made before
 * that said nothing, so VS Code let no image be attached to it. Said for it where the operator has not
 * said otherwise and the echo channel is there (a model of theirs that is only called "echo" is left alone).
 * SQLite's migration 26, PostgreSQL's 19.
 */
const echoTakesImages = (yes: string): string =>
  `UPDATE models SET image_input = ${yes} WHERE name = 'echo' AND image_input IS NULL AND EXISTS (SELECT 1 FROM channels WHERE type = 'echo');`;
export const SQLITE_ECHO_TAKES_IMAGES = echoTakesImages('1');
export const POSTGRES_ECHO_TAKES_IMAGES = echoTakesImages('TRUE');
