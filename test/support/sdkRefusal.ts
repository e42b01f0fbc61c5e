/** What the official openai SDK throws for a request the gateway refuses: the APIError (status, code, message, headers). */
import assert from 'node:assert/strict';
import OpenAI from 'openai';

export type SdkError = InstanceType<typeof OpenAI.APIError>;

/** The APIError `promise` ends in; fails the test when the request was served (or failed otherwise). */
export async function refusalOf(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  assert.fail('the request was served');
}
