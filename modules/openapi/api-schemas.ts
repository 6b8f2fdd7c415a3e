/**
 * Shared apimachinery schemas the operations use: list metadata, Status, DeleteOptions, WatchEvent, Patch and
 * the discovery kinds. Descriptions are ours.
 */
import type { Schema } from '../api/index.js';
import { apiVersionField, bool, int32, int64, kindField, META, ref, str } from './meta-schemas.js';

const strings = (description: string): Schema => ({
  type: 'array',
  description,
  items: { type: 'string', default: '' },
  'x-kubernetes-list-type': 'atomic',
});

const serverAddresses: Schema = {
  type: 'array',
  description: 'Addresses of this server by client network.',
  items: ref(`${META}.ServerAddressByClientCIDR`),
  'x-kubernetes-list-type': 'atomic',
};

export const apiSchemas: Record<string, Schema> = {
  [`${META}.ListMeta`]: {
    type: 'object',
    description: 'Metadata of a list response.',
    properties: {
      continue: str('Token for the next page; empty on the last page.'),
      remainingItemCount: int64('Estimated number of items after this page, when known.'),
      resourceVersion: str('Version of the collection this list was read at.'),
      selfLink: str('Deprecated and never set.'),
    },
  },
  [`${META}.StatusCause`]: {
    type: 'object',
    description: 'One reason a request failed, tied to a field when possible.',
    properties: {
      field: str('Path of the offending field, e.g. spec.containers[0].name.'),
      message: str('Human-readable explanation.'),
      reason: str('Machine-readable reason, e.g. FieldValueInvalid.'),
    },
  },
  [`${META}.StatusDetails`]: {
    type: 'object',
    description: 'Extra data about a failure.',
    properties: {
      causes: {
        type: 'array',
        description: 'The individual causes.',
        items: ref(`${META}.StatusCause`),
        'x-kubernetes-list-type': 'atomic',
      },
      group: str('Group of the object concerned.'),
      kind: str('Kind of the object concerned.'),
      name: str('Name of the object concerned.'),
      retryAfterSeconds: int32('Seconds the client should wait before retrying.'),
      uid: str('UID of the object concerned.'),
    },
  },
  [`${META}.Status`]: {
    type: 'object',
    description: 'Result of a request that does not return an object.',
    properties: {
      apiVersion: apiVersionField,
      code: int32('HTTP status code.'),
      details: ref(`${META}.StatusDetails`, 'Extra data about the failure.'),
      kind: kindField,
      message: str('Human-readable description.'),
      metadata: ref(`${META}.ListMeta`, 'Standard list metadata.'),
      reason: str('Machine-readable reason, e.g. NotFound.'),
      status: str('Success or Failure.'),
    },
  },
  [`${META}.Preconditions`]: {
    type: 'object',
    description: 'Conditions the object must meet for a delete to proceed.',
    properties: {
      resourceVersion: str('Required resourceVersion.'),
      uid: str('Required UID.'),
    },
  },
  [`${META}.DeleteOptions`]: {
    type: 'object',
    description: 'Options of a delete request.',
    properties: {
      apiVersion: apiVersionField,
      dryRun: strings('Set to All to validate the request without persisting anything.'),
      gracePeriodSeconds: int64('Seconds before the object is deleted; 0 deletes at once.'),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool(
        'Deletes an object that cannot be read from storage. Dangerous.',
      ),
      kind: kindField,
      orphanDependents: bool('Deprecated; use propagationPolicy.'),
      preconditions: ref(`${META}.Preconditions`, 'Must hold or the delete fails with 409 Conflict.'),
      propagationPolicy: str('Orphan, Background or Foreground: what happens to dependents.'),
    },
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    type: 'object',
    description: 'An embedded object of any kind.',
  },
  [`${META}.WatchEvent`]: {
    type: 'object',
    description: 'One event of a watch stream.',
    required: ['type', 'object'],
    properties: {
      object: ref(
        'io.k8s.apimachinery.pkg.runtime.RawExtension',
        'The object after ADDED/MODIFIED, before DELETED; a Status for ERROR; a bookmark for BOOKMARK.',
      ),
      type: { type: 'string', default: '' },
    },
  },
  [`${META}.Patch`]: {
    type: 'object',
    description: 'A patch body; its format follows the request Content-Type.',
  },
  [`${META}.APIResource`]: {
    type: 'object',
    description: 'A resource served in a group-version.',
    required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'],
    properties: {
      categories: strings('Groups of resources this one belongs to, e.g. all.'),
      group: str('Group of the kind, when it differs from the list (subresources).'),
      kind: { ...str('Kind of the resource.'), default: '' },
      name: { ...str('Plural resource name.'), default: '' },
      namespaced: { ...bool('Whether objects live in namespaces.'), default: false },
      shortNames: strings('Abbreviations clients accept.'),
      singularName: { ...str('Singular resource name.'), default: '' },
      storageVersionHash: str('Opaque hash of the storage version.'),
      verbs: {
        type: 'array',
        description: 'Verbs the resource supports.',
        items: { type: 'string', default: '' },
      },
      version: str('Version of the kind, when it differs from the list (subresources).'),
    },
  },
  [`${META}.APIResourceList`]: {
    type: 'object',
    description: 'The resources of one group-version.',
    required: ['groupVersion', 'resources'],
    properties: {
      apiVersion: apiVersionField,
      groupVersion: { ...str('The group-version listed.'), default: '' },
      kind: kindField,
      resources: {
        type: 'array',
        description: 'The resources.',
        items: ref(`${META}.APIResource`),
        'x-kubernetes-list-type': 'atomic',
      },
    },
  },
  [`${META}.ServerAddressByClientCIDR`]: {
    type: 'object',
    description: 'The address clients in a network should use to reach this server.',
    required: ['clientCIDR', 'serverAddress'],
    properties: {
      clientCIDR: { ...str('Client network.'), default: '' },
      serverAddress: { ...str('host, host:port, IP or IP:port.'), default: '' },
    },
  },
  [`${META}.GroupVersionForDiscovery`]: {
    type: 'object',
    description: 'A served version of a group.',
    required: ['groupVersion', 'version'],
    properties: {
      groupVersion: { ...str('group/version'), default: '' },
      version: { ...str('The version alone.'), default: '' },
    },
  },
  [`${META}.APIGroup`]: {
    type: 'object',
    description: 'A named group and its served versions.',
    required: ['name', 'versions'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      name: { ...str('Group name.'), default: '' },
      preferredVersion: ref(`${META}.GroupVersionForDiscovery`, 'The version clients should use.'),
      serverAddressByClientCIDRs: serverAddresses,
      versions: {
        type: 'array',
        description: 'Served versions, preferred first.',
        items: ref(`${META}.GroupVersionForDiscovery`),
        'x-kubernetes-list-type': 'atomic',
      },
    },
  },
  [`${META}.APIGroupList`]: {
    type: 'object',
    description: 'The named groups, served at /apis.',
    required: ['groups'],
    properties: {
      apiVersion: apiVersionField,
      groups: {
        type: 'array',
        description: 'The groups.',
        items: ref(`${META}.APIGroup`),
        'x-kubernetes-list-type': 'atomic',
      },
      kind: kindField,
    },
  },
  [`${META}.APIVersions`]: {
    type: 'object',
    description: 'Versions of the core group, served at /api.',
    required: ['versions', 'serverAddressByClientCIDRs'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      serverAddressByClientCIDRs: serverAddresses,
      versions: strings('Served versions.'),
    },
  },
  'io.k8s.apimachinery.pkg.version.Info': {
    type: 'object',
    description: 'Version of the server build.',
    required: [
      'major',
      'minor',
      'gitVersion',
      'gitCommit',
      'gitTreeState',
      'buildDate',
      'goVersion',
      'compiler',
      'platform',
    ],
    properties: Object.fromEntries(
      [
        'buildDate',
        'compiler',
        'gitCommit',
        'gitTreeState',
        'gitVersion',
        'goVersion',
        'major',
        'minor',
        'platform',
      ].map((k) => [k, { type: 'string', default: '' }]),
    ),
  },
};

/** Kinds of the shared schemas. 'every' stands for all group-versions in the document (kube lists them all). */
export const apiSchemaKinds: Record<string, { group: string; version: string } | 'every'> = {
  [`${META}.Status`]: { group: '', version: 'v1' },
  [`${META}.APIResourceList`]: { group: '', version: 'v1' },
  [`${META}.APIGroup`]: { group: '', version: 'v1' },
  [`${META}.APIGroupList`]: { group: '', version: 'v1' },
  [`${META}.APIVersions`]: { group: '', version: 'v1' },
  [`${META}.DeleteOptions`]: 'every',
  [`${META}.WatchEvent`]: 'every',
  'io.k8s.api.autoscaling.v1.Scale': { group: 'autoscaling', version: 'v1' },
};
