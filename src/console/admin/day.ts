/** A day chosen in a date field (yyyy-mm-dd) as the API's expiry: the end of that day in the browser's time zone. */
export function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

/** Whether that end is still to come (an expiry must be in the future). */
export function isFutureDay(day: string): boolean {
  return new Date(endOfDay(day)).getTime() > Date.now();
}
