export * from './definition.js';
export { Registry, storageKey, type RegistryEvent, type RegistryListener } from './registry.js';
export { versionView, convertsStored, servedAs, servedOne, storedAs } from './version-view.js';
export { GenericStore } from './generic-store.js';
export { VirtualKinds, type VirtualCreate } from './virtual.js';

export { RegistryModule, type Enablement } from './registry.module.js';
export { WriteOptions, WriteResult } from './write-contract.js';
export { type DeleteOptions } from './deletion.js';
export { everything, parseSelection, Selection } from './selection.js';
export { ignoredFields } from './managed-fields.js';
export { type UpdatedObject } from './write-contract.js';
export * from './admission.js';
export { corruptionFailure, storageFailure } from './store-errors.js';
export { kindDefect, storedBodyCheck } from './stored-body-check.js';
export { UNSAFE_DELETE_OPTION } from './corrupt-delete.js';
export {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  deletionFinalizers,
  type PropagationPolicy,
} from './deletion.js';
