/**
 * How long a deleted Pod is given to stop (kube's pod CheckGracefulDelete). A pod that runs nowhere (not
 * bound to a node) or no longer runs (Succeeded, Failed) has nothing to stop and goes at once; otherwise the
 * request's grace period wins over the pod's own spec.terminationGracePeriodSeconds.
 */
import type { KubeObject } from '../../api/index.js';
import { numAt, objAt, strAt } from '../values.js';

export function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  const spec = objAt(pod.spec);
  let period = requested ?? numAt(spec.terminationGracePeriodSeconds);
  if (strAt(spec.nodeName) === '') period = 0;
  const phase = strAt(objAt(pod.status).phase);
  if (phase === 'Succeeded' || phase === 'Failed') period = 0;
  // a negative terminationGracePeriodSeconds (allowed, with a warning) counts as one second
  return period < 0 ? 1 : period;
}
