/** The arithmetic of the codebase search: unit vectors and the nearest ones to a query by cosine. Pure. */

/** `vector` scaled to unit length in place (a zero vector stays zero); returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  return vector;
}

export interface Scored {
  readonly row: number;
  readonly score: number;
}

/**
 * The `k` rows of `rows` (unit vectors of `query`'s length, laid end to end) nearest to the unit vector
 * `query`, best first. One pass, holding only the best k.
 */
export function nearest(query: Float32Array, rows: Float32Array, k: number): Scored[] {
  const size = query.length;
  const best: Scored[] = [];
  if (size === 0 || k <= 0) return best;
  const count = Math.floor(rows.length / size);
  for (let row = 0; row < count; row++) {
    let score = 0;
    const at = row * size;
    for (let i = 0; i < size; i++) score += query[i]! * rows[at + i]!;
    if (best.length === k && score <= best[k - 1]!.score) continue;
    let place = best.length === k ? k - 1 : best.length;
    while (place > 0 && best[place - 1]!.score < score) place--;
    best.splice(place, 0, { row, score });
    if (best.length > k) best.pop();
  }
  return best;
}
