/**
 * A write through `status` changes status only, as kube's status strategies of CRDs and custom resources
 * do: the object becomes the stored one with the new status, keeping the managedFields just recorded.
 */
import type { KubeObject } from '../api/index.js';

export function keepAllButStatus(obj: KubeObject, old: KubeObject): void {
  const status = obj.status;
  const managedFields = obj.metadata.managedFields;
  for (const key of Object.keys(obj)) delete obj[key];
  Object.assign(obj, structuredClone(old));
  if (managedFields === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = managedFields;
  if (status === undefined) delete obj.status;
  else obj.status = status;
}
