/**
 * The local gateway another VS Code window runs. Windows share the extension's global storage, so the gateway's data
 * folder, and one gateway serves a folder: a second window's start is refused with the holder's address (the
 * gateway's FolderInUseError, read by shape: the extension reaches the gateway only through startGateway). When that
 * address answers, the window uses it (the settings and the key are shared with the other window too).
 */
import { GatewayClient } from '../../client/index.ts';

/** The address of the gateway that holds the data folder, from a refused start; null for any other failure. */
export function holderAddress(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, url } = error as { name?: unknown; url?: unknown };
  return name === 'FolderInUseError' && typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

/** Whether a gateway answers GET /api/status at `url`. */
export async function gatewayAnswers(url: string): Promise<boolean> {
  const client = new GatewayClient({ baseUrl: url, maxRetries: 0, timeoutMs: 5000 });
  try {
    return (await client.status()).ok;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}
