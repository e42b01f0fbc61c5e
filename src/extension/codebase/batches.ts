/** How the codebase index groups chunks into embedding requests. Pure. */

export const MAX_INPUTS_PER_REQUEST = 64;
/** ~15,000 tokens of code: under the per-request input limits of the common embedding APIs. */
export const MAX_CHARS_PER_REQUEST = 60_000;

/** Whether a batch holding `inputs` texts of `chars` characters has no room for one of `next` more characters. */
export function batchIsFull(inputs: number, chars: number, next: number): boolean {
  return inputs >= MAX_INPUTS_PER_REQUEST || (inputs > 0 && chars + next > MAX_CHARS_PER_REQUEST);
}
