/**
 * How each channel did lately, from the request log (the running gateway's breaker lives in its own
 * memory; the log is what every process can read): answers it served, attempts that failed on it,
 * and the last failure's reason.
 */
import type { StoredLog } from './store/types.ts';

export interface RecentHealth {
  served: number;
  failed: number;
  lastFailure: string | null;
}

/** Per channel name, over `logs` (newest first). */
export function recentHealth(logs: readonly StoredLog[]): Map<string, RecentHealth> {
  const byChannel = new Map<string, RecentHealth>();
  const of = (name: string): RecentHealth => {
    let health = byChannel.get(name);
    if (!health) byChannel.set(name, (health = { served: 0, failed: 0, lastFailure: null }));
    return health;
  };
  for (const log of logs) {
    const attempts = attemptsOfLog(log.attempts);
    if (log.channel !== null) {
      const health = of(log.channel);
      if (log.errorCode === null) health.served++;
      // A request every channel failed names the last one, whose failure is its last attempt (counted below, once).
      else if (log.errorCode.startsWith('upstream_') && attempts.at(-1)?.channel !== log.channel) {
        health.failed++;
        health.lastFailure ??= `${log.errorCode} at ${new Date(log.time).toISOString()}`;
      }
    }
    for (const attempt of attempts) {
      const health = of(attempt.channel);
      health.failed++;
      health.lastFailure ??= `${attempt.code} (${attempt.detail.slice(0, 80)}) at ${new Date(log.time).toISOString()}`;
    }
  }
  return byChannel;
}

/** A log row's failed attempts (JSON the gateway wrote); none when absent or unreadable. */
export function attemptsOfLog(text: string | null | undefined): { channel: string; code: string; detail: string; ms?: number }[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((a): a is { channel: string; code: string; detail: string } => typeof a?.channel === 'string') : [];
  } catch {
    return [];
  }
}
