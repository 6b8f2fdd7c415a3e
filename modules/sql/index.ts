export { SqlModule } from './sql.module.js';
export { LiveViews, type LiveViewsOptions } from './live-views.js';
export { viewNames } from './naming.js';
export { viewSpecs, type ViewSpec } from './view-specs.js';
export { syncViews, baseSchema, readerRole, viewSchema, type SyncResult } from './view-sync.js';
