/**
 * The names a CRD is served under, as kube's naming controller accepts them: the requested names unless
 * another CRD of the group or a built-in kind holds one of them already.
 */
import type { Registry } from '../registry/index.js';
import type { CrdCondition, CrdNames, CustomResourceDefinition } from './crd-shape.js';

export interface NamesVerdict {
  acceptedNames: CrdNames;
  namesAccepted: CrdCondition;
}

export function acceptedNamesOf(
  crd: CustomResourceDefinition,
  others: CustomResourceDefinition[],
  registry: Registry,
): NamesVerdict {
  const requested = crd.spec.names;
  const group = crd.spec.group;
  const taken = new Set<string>();
  const takenKinds = new Set<string>();
  for (const o of others) {
    if (o.spec.group !== group) continue;
    const n = o.status?.acceptedNames;
    if (!n) continue;
    for (const x of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (x) taken.add(x);
    takenKinds.add(n.kind);
    if (n.listKind) takenKinds.add(n.listKind);
  }
  const own = crd.status?.acceptedNames;
  for (const def of registry.definitions) {
    if (def.group !== group || def.resource === own?.plural) continue;
    for (const x of [def.resource, def.singular, ...(def.shortNames ?? [])]) taken.add(x);
    takenKinds.add(def.kind);
    takenKinds.add(def.listKind);
  }
  const mine = (x: string | undefined) => !!own && (own.plural === x || own.singular === x);
  const conflict = [requested.plural, requested.singular]
    .filter((x): x is string => !!x)
    .find((x) => taken.has(x) && !mine(x));
  if (conflict) {
    return {
      acceptedNames: own ?? { plural: '', kind: '' },
      namesAccepted: {
        type: 'NamesAccepted',
        status: 'False',
        reason: 'PluralConflict',
        message: `"${conflict}" is already in use`,
      },
    };
  }
  const kindConflict = [requested.kind, requested.listKind].find(
    (k) => k && takenKinds.has(k) && own?.kind !== k,
  );
  if (kindConflict) {
    return {
      acceptedNames: own ?? { plural: '', kind: '' },
      namesAccepted: {
        type: 'NamesAccepted',
        status: 'False',
        reason: 'KindConflict',
        message: `"${kindConflict}" is already in use`,
      },
    };
  }
  const acceptedNames: CrdNames = {
    plural: requested.plural,
    singular: requested.singular || requested.kind.toLowerCase(),
    kind: requested.kind,
    listKind: requested.listKind || `${requested.kind}List`,
  };
  const shortNames = (requested.shortNames ?? []).filter((s) => !taken.has(s));
  if (shortNames.length) acceptedNames.shortNames = shortNames;
  if (requested.categories?.length) acceptedNames.categories = requested.categories;
  return {
    acceptedNames,
    namesAccepted: {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    },
  };
}
