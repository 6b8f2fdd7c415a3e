export * from './store.js';
export { PostgresStore } from './postgres-store.js';
export { connect, migrate } from './database.js';
export { RESTORE_REVISION_BUMP, type Adoption } from './database-identity.js';
export { startEmbeddedPostgres, freePort, type RunningPostgres } from './embedded-postgres.js';
export { StorageModule, SQL, STORE, type StorageOptions } from './storage.module.js';
export { type CircuitOptions } from './circuit.js';
export {
  CorruptListError,
  CorruptObjectError,
  MAX_CORRUPT_LISTED,
  decodeRow,
  storageKeyText,
  structuralDefect,
  type BodyCheck,
} from './corrupt.js';
