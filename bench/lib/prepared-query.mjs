// The stricter of the benchmarks' two SQL baselines (docs/data-api.md, "How it is measured").

/**
 * A scenario's SQL as a named statement: node-postgres prepares it once per connection and
 * PostgreSQL may keep one plan for it, as it does for the engine's own statements. The plain
 * call (text and values) is parsed and planned on every call; the targets are judged against
 * that one, and this one is reported beside it.
 * @param {{ name: string, sql: string, params: unknown[] }} scenario
 */
export function preparedQuery(scenario) {
  return { name: `bench_${scenario.name}`, text: scenario.sql, values: scenario.params };
}
