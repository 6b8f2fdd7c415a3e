/** coordination.k8s.io/v1 Lease: a lock with a holder and a renewal time (leader election, node heartbeats). */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { fieldError, type FieldError } from '../../api/index.js';
import { ageColumn, nameColumn, stringAt } from '../columns.js';
import { field, int32, kindSchema, microTimeSchema, pointer, str } from '../../api/index.js';
import { isQualifiedName } from '../../validation/index.js';

/** strategies kube itself defines; others must be prefixed (`example.com/name`) */
export const leaseStrategies = ['OldestEmulationVersion'];

const schema = kindSchema({
  description: 'A lease: a named lock that one holder owns for a while and renews to keep.',
  properties: {
    spec: field(2, {
      type: 'object',
      description: 'The lease itself.',
      properties: {
        acquireTime: pointer(field(3, microTimeSchema)),
        holderIdentity: pointer(str(1, 'Identity of the current holder.')),
        leaseDurationSeconds: pointer(
          int32(2, 'How long candidates wait after the last renewal before they may take the lease over.'),
        ),
        leaseTransitions: pointer(int32(5, 'How many times the lease changed holders.')),
        preferredHolder: pointer(
          str(7, 'Holder the lease should go to next; only meaningful with a strategy.'),
        ),
        renewTime: pointer(field(4, microTimeSchema)),
        strategy: pointer(
          str(6, 'How a coordinated leader election picks the holder (alpha, needs a feature gate).'),
        ),
      },
      'x-pgkube-ref': 'io.k8s.api.coordination.v1.LeaseSpec',
    }),
  },
});

const specOf = (obj: KubeObject): Record<string, unknown> => (isPlainObject(obj.spec) ? obj.spec : {});

function validateLeaseSpec(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const { leaseDurationSeconds: duration, leaseTransitions: transitions, strategy, preferredHolder } = spec;
  if (typeof duration === 'number' && duration <= 0) {
    errs.push(fieldError.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  }
  if (typeof transitions === 'number' && transitions < 0) {
    errs.push(fieldError.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  }
  if (typeof strategy === 'string') {
    // kube appends "strategy" twice to this path
    const path = 'spec.strategy.strategy';
    if (!strategy.includes('/')) {
      if (!leaseStrategies.includes(strategy))
        errs.push(fieldError.notSupported(path, strategy, leaseStrategies));
    } else {
      for (const msg of isQualifiedName(strategy)) errs.push(fieldError.invalid(path, strategy, msg));
    }
  }
  if (typeof preferredHolder === 'string' && preferredHolder && !strategy) {
    errs.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export const leaseStrategy: Strategy = {
  // strategy and preferredHolder belong to the CoordinatedLeaderElection feature, off by default in 1.32
  prepareForCreate(obj: KubeObject) {
    if (!isPlainObject(obj.spec)) return;
    delete obj.spec.strategy;
    delete obj.spec.preferredHolder;
  },
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    if (!isPlainObject(obj.spec)) return;
    const oldSpec = specOf(old);
    if (oldSpec.strategy == null) delete obj.spec.strategy;
    if (oldSpec.preferredHolder == null) delete obj.spec.preferredHolder;
  },
  validate: (obj: KubeObject) => validateLeaseSpec(specOf(obj)),
};

export const leaseDefinition: ResourceDefinition = {
  group: 'coordination.k8s.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'leases',
  singular: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Holder',
      type: 'string',
      description: 'Identity of the current holder.',
      priority: 0,
      jsonPath: '.spec.holderIdentity',
      cell: (obj) => stringAt(specOf(obj).holderIdentity),
    },
    ageColumn,
  ],
  strategy: leaseStrategy,
};
