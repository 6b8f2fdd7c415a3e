/** authentication.k8s.io/v1 UserInfo: who a request is, as TokenReview and SelfSubjectReview report it. */
import { field, str, type Schema } from '../../api/index.js';

export const userInfoSchema: Schema = {
  type: 'object',
  description: 'The identity of a user: name, UID, groups and the extra attributes its authenticator gave.',
  properties: {
    extra: field(4, {
      type: 'object',
      description: 'Further attributes the authenticator provided, each a list of values.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    }),
    groups: field(3, {
      type: 'array',
      description: 'The groups the user belongs to.',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'atomic',
    }),
    uid: str(2, 'A value that stays the same for this user over time, unlike the name.'),
    username: str(1, 'The name of the user.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authentication.v1.UserInfo',
};
