/**
 * A test-only kind that shows who created it: testing.pgkube.io/v1 Caller (cluster-scoped). Its `status`
 * is filled on create with the user the server authenticated (name, uid, groups), so an e2e test can read an
 * identity back through any client and any authenticator, until `kubectl auth whoami` can.
 */
import type { ResourceDefinition } from '../../modules/registry/index.js';
import { ageColumn, nameColumn } from '../../modules/kinds/index.js';
import { field, kindSchema, str } from '../../modules/api/index.js';

const schema = kindSchema({
  description: 'Who created this object, as the server authenticated them (test-only).',
  properties: {
    status: field(2, {
      type: 'object',
      description: 'The authenticated user.',
      properties: {
        user: str(1, 'The user name.'),
        uid: str(2, 'The user UID.'),
        groups: field(3, { type: 'array', items: { type: 'string' } }, 'The groups.'),
      },
    }),
  },
});

export const callerDefinition: ResourceDefinition = {
  group: 'testing.pgkube.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'callers',
  singular: 'caller',
  kind: 'Caller',
  listKind: 'CallerList',
  scope: 'Cluster',
  // patch: kubectl validates server-side only for kinds whose OpenAPI has a PATCH with fieldValidation
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update'],
  nameRule: 'dns1123Subdomain',
  schema,
  description: schema.description ?? '',
  printerColumns: [nameColumn, ageColumn],
  strategy: {
    prepareForCreate(obj, ctx) {
      obj.status = { user: ctx.user.name, uid: ctx.user.uid, groups: [...ctx.user.groups] };
    },
  },
};
