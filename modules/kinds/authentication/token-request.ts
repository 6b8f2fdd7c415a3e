/**
 * authentication.k8s.io/v1 TokenRequest: not a stored kind but the body of serviceaccounts/token, decoded and
 * answered with this schema (kube's protobuf field numbers; its OpenAPI component by name).
 */
import { field, int64, kindSchema, pointer, str, timeSchema, type Schema } from '../../api/index.js';

const authenticationV1 = 'io.k8s.api.authentication.v1';

const boundObjectReferenceSchema: Schema = {
  type: 'object',
  description: 'The object a token is bound to: the token is valid only while it exists.',
  properties: {
    apiVersion: str(2, 'API version of the referent.'),
    kind: str(1, "Kind of the referent: 'Secret', 'Pod' or 'Node'."),
    name: str(3, 'Name of the referent.'),
    uid: str(4, 'UID of the referent.'),
  },
  'x-pgkube-ref': `${authenticationV1}.BoundObjectReference`,
};

const specSchema: Schema = {
  type: 'object',
  description: 'What the client asks of a token.',
  required: ['audiences'],
  properties: {
    audiences: field(1, {
      type: 'array',
      description:
        'Who the token is for: a recipient must find itself among them. Empty: the API server itself.',
      items: { type: 'string', default: '' },
      'x-kubernetes-list-type': 'atomic',
    }),
    boundObjectRef: field(3, boundObjectReferenceSchema),
    expirationSeconds: pointer(
      int64(4, 'How long the token should be valid; the server may shorten it (see status).'),
    ),
  },
  'x-pgkube-ref': `${authenticationV1}.TokenRequestSpec`,
};

const statusSchema: Schema = {
  type: 'object',
  description: 'The issued token.',
  required: ['token', 'expirationTimestamp'],
  properties: {
    expirationTimestamp: field(2, timeSchema),
    token: str(1, 'The opaque bearer token.'),
  },
  'x-pgkube-ref': `${authenticationV1}.TokenRequestStatus`,
};

export const tokenRequestSchema: Schema = {
  ...kindSchema({
    description: 'Requests a token for a service account.',
    required: ['spec'],
    properties: {
      spec: field(2, specSchema),
      status: field(3, statusSchema),
    },
  }),
  'x-pgkube-ref': `${authenticationV1}.TokenRequest`,
};
