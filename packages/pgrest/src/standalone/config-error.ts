/** A configuration problem, always naming the offending key (or file line) first. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(`${key}: ${problem}`);
    this.name = 'ConfigError';
  }
}
