export * from './store.js';
export { PostgresStore } from './postgres-store.js';
export { connect, migrate } from './database.js';
export { startEmbeddedPostgres, freePort, type RunningPostgres } from './embedded-postgres.js';
export { StorageModule, SQL, STORE, type StorageOptions } from './storage.module.js';
export { type CircuitOptions } from './circuit.js';
