export { WatchCache, type CacheListener } from './watch-cache.js';
export type { CachedEvent } from './events.js';
export { encodeEvent, jsonEventLine, type EventType, type WatchEncoding } from './events.js';
export { Watcher, type WatchOptions } from './watcher.js';
export { WatchModule } from './watch.module.js';
export * from './read-options.js';
export { awaitRevision, tooOld, TOO_LARGE_WAIT_MS } from './reads.js';
export { encodeContinue, decodeContinue, continueExpired, type ContinueToken } from './continue-token.js';
