/** Byte-level helpers for the SSE decoder tests: recorded streams cut every possible way. */

/** Every way to cut `bytes` in two, plus one byte at a time, plus whole. */
export function splits(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[bytes]];
  for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  out.push([...bytes].map((b) => Uint8Array.of(b)));
  return out;
}

/** Feeds `parts` to a decoder in order, then ends it; returns everything it produced. */
export function decodeAll<T>(decoder: { push(chunk: Uint8Array): readonly T[]; end(): readonly T[] }, parts: Uint8Array[]): T[] {
  const out: T[] = [];
  for (const part of parts) out.push(...decoder.push(part));
  out.push(...decoder.end());
  return out;
}
