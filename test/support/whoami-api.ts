/**
 * A test-only kind that shows who the server authenticated: creating a WhoAmI (testing.pgkube.io/v1,
 * cluster-scoped) stores the request's user in its status, as SelfSubjectReview answers it. It lets e2e tests
 * read the identity a credential gives through the real pipeline (authentication, impersonation, context)
 * with the real kubectl.
 */
import type { ResourceDefinition } from '../../modules/registry/index.js';
import { field, kindSchema, str, type Schema } from '../../modules/api/index.js';
import { nameColumn } from '../../modules/kinds/index.js';

const strings: Schema = { type: 'array', items: { type: 'string' } };

const schema = kindSchema({
  description: 'The user that created it (test-only).',
  properties: {
    status: field(3, {
      type: 'object',
      description: 'Who created it.',
      properties: {
        userInfo: field(1, {
          type: 'object',
          description: 'The authenticated user, after impersonation.',
          properties: {
            username: str(1),
            uid: str(2),
            groups: field(3, strings),
            extra: field(4, { type: 'object', additionalProperties: strings }),
          },
        }),
      },
    }),
  },
});

export const whoAmIDefinition: ResourceDefinition = {
  group: 'testing.pgkube.io',
  versions: ['v1'],
  storageVersion: 'v1',
  resource: 'whoamis',
  singular: 'whoami',
  kind: 'WhoAmI',
  listKind: 'WhoAmIList',
  scope: 'Cluster',
  // kubectl's client-side validation looks for the kind's patch operation in OpenAPI
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update'],
  nameRule: 'dns1123Subdomain',
  schema,
  description: schema.description ?? '',
  printerColumns: [nameColumn],
  strategy: {
    prepareForCreate(obj, ctx) {
      const { name, uid, groups, extra } = ctx.user;
      obj.status = { userInfo: { username: name, uid, groups, ...(extra ? { extra } : {}) } };
    },
  },
};
