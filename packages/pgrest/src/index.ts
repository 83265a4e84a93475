export * from './engine-types.js';
export { createPgrest, type PgrestEngineOptions } from './engine.js';
export { PgrstError, isPgrstError } from './errors/pgrst-error.js';
export type { PgrestLogger } from './schema/schema-cache-store.js';
export type { EngineLimits } from './http/engine-state.js';
export { parseQueryParams } from './parser/query-params.js';
export type * from './parser/ast.js';
