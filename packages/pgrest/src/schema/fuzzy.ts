/*
 * Close-name suggestions for "Perhaps you meant ..." hints. PostgREST uses a fuzzy set
 * (n-gram cosine similarity); this is the same idea with bigrams and trigrams.
 */

function grams(text: string, size: number): Map<string, number> {
  const padded = `-${text.toLowerCase()}-`;
  const counts = new Map<string, number>();
  if (padded.length < size) {
    counts.set(padded, 1);
    return counts;
  }
  for (let index = 0; index + size <= padded.length; index += 1) {
    const gram = padded.slice(index, index + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [gram, count] of a) {
    normA += count * count;
    dot += count * (b.get(gram) ?? 0);
  }
  for (const count of b.values()) normB += count * count;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Edit distance (insertions, deletions, substitutions all cost 1). */
export function levenshtein(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/**
 * Similarity in [0, 1] between two names. Like a fuzzy set, candidates sharing n-grams are
 * scored by edit distance (1 - distance / longer length); others score 0.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const shared = Math.max(cosine(grams(a, 2), grams(b, 2)), cosine(grams(a, 3), grams(b, 3)));
  if (shared === 0) return 0;
  const lower = [a.toLowerCase(), b.toLowerCase()] as const;
  return 1 - levenshtein(lower[0], lower[1]) / Math.max(a.length, b.length, 1);
}

/** The candidate most similar to `name`, when at least `minScore` similar. */
export function closestMatch(name: string, candidates: Iterable<string>, minScore: number): string | null {
  let best: string | null = null;
  let bestScore = minScore;
  for (const candidate of candidates) {
    const score = similarity(name, candidate);
    if (score >= bestScore && (best === null || score > bestScore)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
