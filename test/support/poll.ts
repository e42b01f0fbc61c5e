// Waiting by polling, never by fixed sleeps.
export const defaultTimeoutMs = 60000;

/** The thing polled for did not happen in time. */
export class PollTimeout extends Error {
  override readonly name = 'PollTimeout';
}

export async function poll<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = defaultTimeoutMs, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new PollTimeout(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
