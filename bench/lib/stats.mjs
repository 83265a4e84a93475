// Helpers every benchmark script shares: reading its BENCH_* settings and summarising timings.

/**
 * A positive integer from the environment, or `fallback` when the variable is unset or empty.
 * @param {string} name @param {number} fallback
 */
export function positiveIntEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2 : (sorted[mid] ?? 0);
}

/**
 * The nearest-rank percentile: the smallest value with at least p % of the values at or below it.
 * @param {number[]} values @param {number} p
 */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Three decimals, for reports. @param {number} n */
export function round(n) {
  return Math.round(n * 1000) / 1000;
}

/**
 * Milliseconds `fn` took, and what it returned.
 * @template T @param {() => Promise<T>} fn @returns {Promise<[number, T]>}
 */
export async function timed(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
}
