// Waiting by polling, never by fixed sleeps.
export const defaultTimeoutMs = 60000;

/** The thing polled for did not happen in time. */
export class PollTimeout extends Error {
  override readonly name = 'PollTimeout';
}

/** Thrown by a probe when waiting longer cannot help (the process being waited for has exited): poll rethrows it at once. */
export class GiveUp extends Error {
  override readonly name = 'GiveUp';
}

/** Calls `probe` until it returns a value (not undefined, null or false); a probe that throws is tried again, unless it throws GiveUp. */
export async function poll<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = defaultTimeoutMs, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new PollTimeout(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
