export * from './engine-types.js';
export { createPgrest, type PgrestEngineOptions } from './engine.js';
export { PgrstError, isPgrstError } from './errors/pgrst-error.js';
export type { PgrestLogger } from './schema/schema-cache-store.js';
export type { EngineLimits } from './http/engine-state.js';
// Hosts that parse JSON bodies themselves can bound their nesting the same way.
export { jsonNestingExceeds } from './http/json-body.js';
// Hosts that read a request body before the engine read it as UTF-8 the same way.
export { utf8Text as requestBodyText } from './http/request-body.js';
export { parseQueryParams } from './parser/query-params.js';
// Hosts that add rules per relation (Lookout's /api/db) must read the path exactly as the engine does.
export { parseRoute, type Route } from './http/request-context.js';
export type * from './parser/ast.js';
