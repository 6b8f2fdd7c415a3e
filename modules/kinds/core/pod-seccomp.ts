/**
 * securityContext.seccompProfile of pods and their containers: which profile a container runs with, and
 * kube's validation of the field (validateSeccompProfileField) wherever it appears.
 */
import { fieldError, type FieldError } from '../../api/index.js';
import { listAt, objAt, strAt, type Obj } from '../values.js';

export type SeccompProfileType = 'Localhost' | 'RuntimeDefault' | 'Unconfined';

export interface SeccompProfile {
  type: SeccompProfileType;
  /** set with Localhost only: a path relative to the kubelet's seccomp directory */
  localhostProfile?: string;
}

const profileTypes: SeccompProfileType[] = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function profileAt(securityContext: unknown): SeccompProfile | undefined {
  const profile = objAt(securityContext).seccompProfile;
  if (profile === undefined || profile === null) return undefined;
  const p = objAt(profile);
  const type = strAt(p.type) as SeccompProfileType;
  return typeof p.localhostProfile === 'string' ? { type, localhostProfile: p.localhostProfile } : { type };
}

/**
 * The seccomp profile a container runs with: its own when set, else the pod's; undefined when neither sets
 * one (the runtime then runs it Unconfined, as the kubelet does without the SeccompDefault gate).
 */
export function effectiveSeccompProfile(podSpec: Obj, container: Obj): SeccompProfile | undefined {
  return profileAt(container.securityContext) ?? profileAt(podSpec.securityContext);
}

/** Go's path.Clean-free checks kube makes of a localhost profile path (validateLocalDescendingPath). */
function descendingPathErrors(value: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (value.startsWith('/')) errors.push(fieldError.invalid(path, value, 'must be a relative path'));
  if (value.split(/[/\\]/).includes('..'))
    errors.push(fieldError.invalid(path, value, "must not contain '..'"));
  return errors;
}

/** One seccompProfile field (`path` ends in `.seccompProfile`). */
export function validateSeccompProfile(profile: unknown, path: string): FieldError[] {
  if (profile === undefined || profile === null) return [];
  const p = objAt(profile);
  const type = strAt(p.type);
  const errors: FieldError[] = [];
  if (type === '')
    errors.push(fieldError.required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!profileTypes.includes(type as SeccompProfileType))
    errors.push(fieldError.notSupported(`${path}.type`, type, profileTypes));
  const local = p.localhostProfile;
  const hasLocal = local !== undefined && local !== null;
  if (type === 'Localhost') {
    if (!hasLocal)
      errors.push(
        fieldError.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'),
      );
    else errors.push(...descendingPathErrors(strAt(local), `${path}.localhostProfile`));
  } else if (hasLocal) {
    errors.push(
      fieldError.invalid(`${path}.localhostProfile`, p, 'can only be set when seccomp type is Localhost'),
    );
  }
  return errors;
}

/** The pod's seccompProfile and those of all its containers, init and ephemeral ones included. */
export function validatePodSeccomp(spec: Obj): FieldError[] {
  const errors = validateSeccompProfile(
    objAt(spec.securityContext).seccompProfile,
    'spec.securityContext.seccompProfile',
  );
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    listAt(spec[list]).forEach((c, i) => {
      const path = `spec.${list}[${i}].securityContext.seccompProfile`;
      errors.push(...validateSeccompProfile(objAt(objAt(c).securityContext).seccompProfile, path));
    });
  }
  return errors;
}
