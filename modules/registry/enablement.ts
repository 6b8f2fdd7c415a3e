import type { ResourceDefinition } from './definition.js';

/** Which versions of a kind are served (--runtime-config); without one, every version is. */
export interface Enablement {
  /** each definition with its enabled versions only; kinds with none left out */
  served(defs: readonly ResourceDefinition[]): ResourceDefinition[];
}
