// The embedded PostgreSQL package finds ports for its servers; tests find theirs the same way.
export { findFreePort } from '@lookout/embedded-postgres';
