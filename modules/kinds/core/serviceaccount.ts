/** core/v1 ServiceAccount: an identity for processes running in pods. */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { ageColumn, countOf, nameColumn } from '../columns.js';
import {
  bool,
  field,
  kindSchema,
  localObjectReferenceSchema,
  objectReferenceSchema,
  pointer,
} from '../../api/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';
import { tokenRequestSchema } from '../authentication/token-request.js';

const schema = kindSchema({
  description:
    'An identity for processes that run in pods, used to authenticate them to the API with tokens.',
  properties: {
    automountServiceAccountToken: pointer(
      bool(
        4,
        "Whether pods using this account get an API token mounted automatically; a pod's own setting wins.",
      ),
    ),
    imagePullSecrets: field(3, {
      type: 'array',
      description: 'Secrets in the same namespace that pods using this account use to pull images.',
      items: localObjectReferenceSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
    secrets: field(2, {
      type: 'array',
      description:
        'Secrets in the same namespace that pods using this account may use (enforced only with the ' +
        'kubernetes.io/enforce-mountable-secrets annotation). Not a way to find token secrets.',
      items: objectReferenceSchema,
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    }),
  },
});

/** kube keeps only the name of each secret reference; the other fields are meaningless here. */
function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = obj.secrets.map((ref) => {
    const name = isPlainObject(ref) && typeof ref.name === 'string' ? ref.name : undefined;
    return name ? { name } : {};
  });
}

export const serviceAccountStrategy: Strategy = {
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: (obj) => cleanSecretReferences(obj),
  validate(obj: KubeObject) {
    return validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers');
  },
};

export const serviceAccountDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  scope: 'Namespaced',
  shortNames: ['sa'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  // TokenRequest: the token subresource issues tokens for the account (create only)
  subresources: ['token'],
  subresourceSchemas: { token: tokenRequestSchema },
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Secrets',
      type: 'string',
      description: 'Number of secrets listed for the account.',
      priority: 0,
      jsonPath: '.secrets',
      cell: (obj) => countOf(obj.secrets),
    },
    ageColumn,
  ],
  strategy: serviceAccountStrategy,
};
