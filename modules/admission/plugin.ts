/**
 * An admission plugin: a mutating stage (`admit`, may change the object), a validating stage (`validate`,
 * may only refuse), or both. Plugins refuse by throwing an ApiError.
 */
import type { AdmissionAttributes } from '../registry/index.js';

export interface AdmissionPlugin {
  readonly name: string;
  admit?(attributes: AdmissionAttributes): void | Promise<void>;
  validate?(attributes: AdmissionAttributes): void | Promise<void>;
}
