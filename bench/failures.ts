/**
 * What makes a benchmark run fail (exit 1), whatever its figures: a request that failed, a stream that did
 * not complete, bookkeeping that does not add up (the log rows' charges against the balance's decrease).
 */
import type { Results } from './report.ts';

export function failuresOf(results: Results): { errors: number; notes: string[] } {
  let errors = 0;
  const notes: string[] = [];
  for (const byTarget of Object.values(results.runs)) for (const r of Object.values(byTarget)) errors += r.errors;
  if (results.completion) errors += results.completion.raw.errors + results.completion.extension.errors;
  if (results.hold) errors += results.hold.errors + (results.hold.streams - results.hold.completed - results.hold.errors);
  const books = results.bookkeeping;
  if (books && !books.ok) {
    notes.push(`bench: bookkeeping does not add up: ${JSON.stringify(books)}`);
    errors++;
  }
  if (results.long) {
    for (const r of [results.long.floor, results.long.gateway]) errors += r.errors + (r.streams - r.completed - r.errors);
    if (!results.long.bookkeeping.ok) {
      notes.push(`bench: bookkeeping of the long-streams gateway does not add up: ${JSON.stringify(results.long.bookkeeping)}`);
      errors++;
    }
  }
  const pgBooks = results.postgres?.bookkeeping;
  if (results.postgres && !pgBooks?.ok) {
    notes.push(`bench: bookkeeping on PostgreSQL does not add up: ${JSON.stringify(pgBooks)}`);
    errors++;
  }
  return { errors, notes };
}
