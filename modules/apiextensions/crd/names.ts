/**
 * kube's naming controller as pure functions: which of a CRD's requested names it may have (a name another
 * CRD of the group, or a built-in resource of it, already has is refused), the NamesAccepted condition, and
 * the Established rule. The integrator runs these in a controller and writes the status.
 */
import type { CRDCondition, CRDNames, CustomResourceDefinition } from './types.js';
import { findCondition } from './types.js';
import { namesOf } from './internal.js';

/** A built-in resource's names, for conflicts with CRDs in its group. */
export interface BuiltinNames {
  group: string;
  resource: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
}

export interface NamesDecision {
  acceptedNames: CRDNames;
  namesAccepted: CRDCondition;
  /** the Established condition to write with it (Installing once names are first accepted) */
  established: CRDCondition;
}

/** Names in use in the group: every CRD's accepted names (this one's too, as kube counts them) and built-ins'. */
function namesInUse(
  crd: CustomResourceDefinition,
  others: CustomResourceDefinition[],
  builtin: BuiltinNames[],
) {
  const group = crd.spec?.group;
  const resources = new Set<string>();
  const kinds = new Set<string>();
  const crds = [crd, ...others.filter((o) => o.metadata.name !== crd.metadata.name)];
  for (const c of crds) {
    if (c.spec?.group !== group) continue;
    const a = namesOf(c.status?.acceptedNames);
    for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) resources.add(n ?? '');
    kinds.add(a.kind ?? '');
    kinds.add(a.listKind ?? '');
  }
  for (const b of builtin) {
    if (b.group !== group) continue;
    for (const n of [b.resource, b.singular, ...(b.shortNames ?? [])]) if (n) resources.add(n);
    kinds.add(b.kind);
    kinds.add(b.listKind ?? `${b.kind}List`);
  }
  return { resources, kinds };
}

/** kube's equalToAcceptedOrFresh: the name it already has, or one nobody uses. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

const sameList = (a: string[] | undefined, b: string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === (b ?? [])[i]);

export function acceptNames(
  crd: CustomResourceDefinition,
  others: CustomResourceDefinition[],
  builtin: BuiltinNames[] = [],
): NamesDecision {
  const { resources, kinds } = namesInUse(crd, others, builtin);
  const requested = namesOf(crd.spec?.names);
  const accepted = namesOf(crd.status?.acceptedNames);
  const names: CRDNames = { ...accepted };
  // the last conflict found is the one reported, as kube's controller overwrites its condition
  const state: { refusal?: { reason: string; message: string } } = {};
  const judge = (reason: string, error: string | undefined, take: () => void): void => {
    if (error) state.refusal = { reason, message: error };
    else take();
  };
  judge('PluralConflict', conflict(requested.plural ?? '', accepted.plural ?? '', resources), () => {
    names.plural = requested.plural;
  });
  judge('SingularConflict', conflict(requested.singular ?? '', accepted.singular ?? '', resources), () => {
    names.singular = requested.singular;
  });
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const had = new Set(accepted.shortNames ?? []);
    const errors = [
      ...new Set(
        (requested.shortNames ?? [])
          .filter((s) => !had.has(s))
          .map((s) => conflict(s, '', resources))
          .filter((e): e is string => e !== undefined),
      ),
    ];
    // kube's error aggregate: one message alone, several in brackets
    const message =
      errors.length === 1 ? errors[0] : errors.length > 1 ? `[${errors.join(', ')}]` : undefined;
    judge('ShortNamesConflict', message, () => {
      names.shortNames = requested.shortNames;
    });
  }
  judge('KindConflict', conflict(requested.kind ?? '', accepted.kind ?? '', kinds), () => {
    names.kind = requested.kind;
  });
  judge('ListKindConflict', conflict(requested.listKind ?? '', accepted.listKind ?? '', kinds), () => {
    names.listKind = requested.listKind;
  });
  names.categories = requested.categories;
  const namesAccepted: CRDCondition = state.refusal
    ? { type: 'NamesAccepted', status: 'False', ...state.refusal }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };

  let established: CRDCondition = findCondition(crd, 'Established') ?? {
    type: 'Established',
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  };
  if (established.status !== 'True' && namesAccepted.status === 'True')
    established = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  return { acceptedNames: clean(names), namesAccepted, established: { ...established } };
}

function clean(names: CRDNames): CRDNames {
  const out: CRDNames = {};
  for (const [k, v] of Object.entries(names)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** Nothing to do when the requested names are already the accepted ones (kube's naming controller skips). */
export function namesSettled(crd: CustomResourceDefinition): boolean {
  const a = namesOf(crd.spec?.names);
  const b = namesOf(crd.status?.acceptedNames);
  return (
    a.plural === b.plural &&
    a.singular === b.singular &&
    a.kind === b.kind &&
    a.listKind === b.listKind &&
    sameList(a.shortNames, b.shortNames) &&
    sameList(a.categories, b.categories)
  );
}

/** The Established condition kube's establishing controller writes once names are accepted, if due now. */
export function establishedCondition(crd: CustomResourceDefinition): CRDCondition | undefined {
  if (findCondition(crd, 'NamesAccepted')?.status !== 'True') return undefined;
  if (findCondition(crd, 'Established')?.status === 'True') return undefined;
  return {
    type: 'Established',
    status: 'True',
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  };
}

/** The Terminating conditions kube writes while a CRD is deleted, by stage. */
export const terminatingConditions = {
  pending: {
    type: 'Terminating',
    status: 'True',
    reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  },
  inProgress: {
    type: 'Terminating',
    status: 'True',
    reason: 'InstanceDeletionInProgress',
    message: 'CustomResource deletion is in progress',
  },
  completed: {
    type: 'Terminating',
    status: 'False',
    reason: 'InstanceDeletionCompleted',
    message: 'removed all instances',
  },
  neverEstablished: {
    type: 'Terminating',
    status: 'False',
    reason: 'NeverEstablished',
    message: 'resource was never established',
  },
} satisfies Record<string, CRDCondition>;

/** The finalizer that holds a CRD until its custom resources are gone. */
export const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * kube's SetCRDCondition: replaces the condition of the same type; lastTransitionTime moves only when the
 * status changes (or was never set).
 */
export function setCondition(crd: CustomResourceDefinition, condition: CRDCondition, now: string): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: now });
    return;
  }
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = now;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
}
