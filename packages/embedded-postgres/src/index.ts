export { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
export { findFreePort } from './free-port.js';
