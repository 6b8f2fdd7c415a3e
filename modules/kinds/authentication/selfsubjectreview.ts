/**
 * authentication.k8s.io/v1 SelfSubjectReview: "who am I?" (`kubectl auth whoami`), answered with the identity
 * the request acts as, after impersonation. Nothing is stored: a virtual kind of the authentication module.
 */
import { field, kindSchema } from '../../api/index.js';
import { virtualKind } from '../virtual.js';
import { userInfoSchema } from './user-info.js';

const schema = kindSchema({
  description: 'The identity the server sees for the request that creates it.',
  properties: {
    status: field(2, {
      type: 'object',
      description: 'Filled by the server.',
      properties: { userInfo: field(1, userInfoSchema) },
      'x-pgkube-ref': 'io.k8s.api.authentication.v1.SelfSubjectReviewStatus',
    }),
  },
});

export const selfSubjectReviewDefinition = virtualKind({
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  scope: 'Cluster',
  schema,
});
