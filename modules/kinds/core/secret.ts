/** core/v1 Secret: small amounts of confidential data, base64-encoded in `data`, typed by `type`. */
import type { ResourceDefinition, Strategy } from '../../registry/index.js';
import { isPlainObject, type KubeObject } from '../../api/index.js';
import { fieldError, type FieldError } from '../../api/index.js';
import { ageColumn, countOf, nameColumn, stringAt } from '../columns.js';
import { bool, bytesMap, kindSchema, pointer, str, stringMap } from '../../api/index.js';
import { base64Decode, validateImmutablePayload, validateSecretPayload } from '../../validation/index.js';
import { fieldImmutableErrorMsg, validateStandardFinalizers } from '../../validation/index.js';
import { goUnmarshalObjectError } from '../../validation/index.js';

export const secretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJson: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

export const serviceAccountNameKey = 'kubernetes.io/service-account.name';

const schema = kindSchema({
  description: 'Confidential data such as passwords, tokens or keys, kept apart from the pods that use it.',
  properties: {
    data: bytesMap(
      2,
      "Secret entries, base64-encoded. Keys consist of alphanumerics, '-', '_' or '.'; at most 1 MiB in total.",
    ),
    immutable: pointer(bool(5, 'When true, data can no longer change; only metadata can be updated.')),
    stringData: stringMap(
      4,
      'Write-only convenience input: plain-text entries merged into data on write, overriding equal keys. Never returned.',
    ),
    type: str(3, 'How the data is meant to be used, e.g. Opaque (the default) or kubernetes.io/tls.'),
  },
});

const redacted = '<secret contents redacted>';

/** The rules each well-known type adds; other types (Opaque, bootstrap tokens, custom ones) have none. */
function validateSecretType(obj: KubeObject): FieldError[] {
  const data = isPlainObject(obj.data) ? obj.data : {};
  const has = (key: string): boolean => Object.hasOwn(data, key);
  const errs: FieldError[] = [];
  switch (obj.type) {
    case secretTypes.serviceAccountToken: {
      // the token and uid are filled in later by a controller; only the account name is needed up front
      const name = obj.metadata.annotations?.[serviceAccountNameKey];
      if (!name) errs.push(fieldError.required(`metadata.annotations[${serviceAccountNameKey}]`));
      break;
    }
    case secretTypes.dockercfg:
    case secretTypes.dockerConfigJson: {
      const key = obj.type === secretTypes.dockercfg ? '.dockercfg' : '.dockerconfigjson';
      if (!has(key)) {
        errs.push(fieldError.required(`data[${key}]`));
        break;
      }
      const problem = goUnmarshalObjectError(base64Decode(data[key]));
      if (problem) errs.push(fieldError.invalid(`data[${key}]`, redacted, problem));
      break;
    }
    case secretTypes.basicAuth:
      // either may be empty, but one of them must be present
      if (!has('username') && !has('password')) {
        errs.push(fieldError.required('data[username]'), fieldError.required('data[password]'));
      }
      break;
    case secretTypes.sshAuth:
      if (base64Decode(data['ssh-privatekey']).length === 0)
        errs.push(fieldError.required('data[ssh-privatekey]'));
      break;
    case secretTypes.tls:
      if (!has('tls.crt')) errs.push(fieldError.required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(fieldError.required('data[tls.key]'));
      break;
  }
  return errs;
}

export const secretStrategy: Strategy = {
  /** What kube's decoding does: default the type, and fold the write-only stringData into data. */
  defaults(obj: KubeObject) {
    if (!obj.type) obj.type = secretTypes.opaque;
    if (isPlainObject(obj.stringData)) {
      const data = isPlainObject(obj.data) ? obj.data : {};
      for (const [key, value] of Object.entries(obj.stringData)) {
        data[key] = Buffer.from(typeof value === 'string' ? value : '', 'utf8').toString('base64');
      }
      if (Object.keys(data).length > 0) obj.data = data;
    }
    delete obj.stringData;
  },
  validate(obj: KubeObject) {
    return [
      ...validateStandardFinalizers(obj.metadata.finalizers, 'metadata.finalizers'),
      ...validateSecretPayload(obj.data),
      ...validateSecretType(obj),
    ];
  },
  validateUpdate(obj: KubeObject, old: KubeObject) {
    const errs: FieldError[] = [];
    if ((obj.type ?? '') !== (old.type ?? ''))
      errs.push(fieldError.invalid('type', obj.type ?? '', fieldImmutableErrorMsg));
    errs.push(...validateImmutablePayload(obj, old, [{ name: 'data', base64: true }]));
    return errs;
  },
  selectableFields(obj: KubeObject) {
    return { type: typeof obj.type === 'string' ? obj.type : '' };
  },
};

export const secretDefinition: ResourceDefinition = {
  group: '',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'secrets',
  singular: 'secret',
  kind: 'Secret',
  listKind: 'SecretList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  nameRule: 'dns1123Subdomain',
  allowCreateOnUpdate: false,
  schema,
  description: schema.description ?? '',
  printerColumns: [
    nameColumn,
    {
      name: 'Type',
      type: 'string',
      description: 'How the data is meant to be used.',
      priority: 0,
      jsonPath: '.type',
      cell: (obj) => stringAt(obj.type),
    },
    {
      name: 'Data',
      type: 'string',
      description: 'Number of entries in data.',
      priority: 0,
      jsonPath: '.data',
      cell: (obj) => countOf(obj.data),
    },
    ageColumn,
  ],
  strategy: secretStrategy,
};
