/** core/v1 ConfigMap: configuration data as text (`data`) and binary (`binaryData`) entries. */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import type { KubeObject } from '../../api/index.js';
import { ageColumn, countOf, nameColumn } from '../columns.js';
import { bool, bytesMap, kindSchema, pointer, stringMap } from '../../api/index.js';
import { validateConfigMapPayload, validateImmutablePayload } from '../../validation/index.js';
import { validateStandardFinalizers } from '../../validation/index.js';

const schema = kindSchema({
  description: 'Non-confidential configuration data, stored as key/value pairs that pods can consume.',
  properties: {
    binaryData: bytesMap(
      3,
      'Binary entries, base64-encoded. Keys use the same rules as data keys and may not repeat a key of data.',
    ),
    data: stringMap(
      2,
      "Text entries. Keys consist of alphanumerics, '-', '_' or '.'; values must be UTF-8 (use binaryData otherwise).",
    ),
    immutable: pointer(
      bool(4, 'When true, data and binaryData can no longer change; only metadata can be updated.'),
    ),
  },
});

export const configMapStrategy: Strategy = {
  validate(obj: KubeObject) {
    return [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateConfigMapPayload(obj.data, obj.binaryData),
    ];
  },
  validateUpdate(obj: KubeObject, old: KubeObject) {
    return validateImmutablePayload(obj, old, [
      { name: 'data', base64: false },
      { name: 'binaryData', base64: true },
    ]);
  },
};

export const configMapDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  scope: 'Namespaced',
  shortNames: ['cm'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Data',
      type: 'string',
      description: 'Number of entries in data and binaryData.',
      priority: 0,
      jsonPath: '.data',
      cell: (obj) => countOf(obj.data) + countOf(obj.binaryData),
    },
    ageColumn,
  ],
  strategy: configMapStrategy,
};
