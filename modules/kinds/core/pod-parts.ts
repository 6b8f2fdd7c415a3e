/** Reading a pod's parts that passed no schema yet (see ../values.ts). */
import { isPlainObject } from '../../api/index.js';
import { listAt, type Obj } from '../values.js';

/** The objects of a list; anything else in it is left to validation. */
export const records = (v: unknown): Obj[] => listAt(v).filter(isPlainObject);

/** The containers of every kind a pod has, in kube's order: init containers, containers, ephemeral ones. */
export function allContainers(spec: Obj): Obj[] {
  return [...records(spec.initContainers), ...records(spec.containers), ...records(spec.ephemeralContainers)];
}
