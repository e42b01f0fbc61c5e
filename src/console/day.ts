/**
 * A day chosen in a date field ("2026-12-31") as the API's expiry: the end of that day in the browser's
 * time zone. One rule for every form that sets one (keys, codes, invitations, access tokens).
 */
export function endOfDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 23, 59, 59, 999).toISOString();
}

/** Whether that end is still to come (an expiry must be in the future). */
export function isFutureDay(day: string): boolean {
  const end = endOfDay(day);
  return end !== null && new Date(end).getTime() > Date.now();
}

/** A body's expires_at for the chosen day: absent when none was chosen. */
export function expiryOf(day: string): { expires_at?: string } {
  const end = endOfDay(day);
  return end === null ? {} : { expires_at: end };
}
