/** How much of a workspace the codebase index takes in. */

export const MAX_FILES = 5_000;
/** Larger files are generated or data, rarely what a question is about, and would crowd the index. */
export const MAX_FILE_BYTES = 256 * 1024;
/** Chunks in the index at most: ~180 MB of vectors at 1,536 dimensions, held in memory while searching. */
export const MAX_CHUNKS = 30_000;
