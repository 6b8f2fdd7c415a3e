/**
 * authentication.k8s.io/v1 TokenReview: "who is this bearer token?", answered by the server's own token
 * authenticators. Nothing is stored: the answer comes from the authentication module (a virtual kind).
 */
import { bool, field, kindSchema, str } from '../../api/index.js';
import { virtualKind } from '../virtual.js';
import { userInfoSchema } from './user-info.js';

const audiences = (n: number, description: string) =>
  field(n, {
    type: 'array',
    description,
    items: { type: 'string' },
    'x-kubernetes-list-type': 'atomic',
  });

const schema = kindSchema({
  description: 'A question about a bearer token: is it valid here, and which user does it stand for?',
  properties: {
    spec: field(2, {
      type: 'object',
      description: 'The token to review.',
      properties: {
        audiences: audiences(
          2,
          "Audiences the token should be meant for; unset: the API server's own audiences.",
        ),
        token: str(1, 'The opaque bearer token.'),
      },
      'x-pgkube-ref': 'io.k8s.api.authentication.v1.TokenReviewSpec',
    }),
    status: field(3, {
      type: 'object',
      description: 'The answer, filled by the server.',
      properties: {
        audiences: audiences(4, 'The audiences, among those asked for, that the token is valid for.'),
        authenticated: bool(1, 'Whether the token was valid.'),
        error: str(3, 'Why the token could not be reviewed or was refused.'),
        user: field(2, userInfoSchema),
      },
      'x-pgkube-ref': 'io.k8s.api.authentication.v1.TokenReviewStatus',
    }),
  },
  required: ['spec'],
});

export const tokenReviewDefinition = virtualKind({
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenreviews',
  kind: 'TokenReview',
  scope: 'Cluster',
  schema,
});
