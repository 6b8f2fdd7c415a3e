/**
 * authorization.k8s.io/v1's access reviews: "may this user do this?" (SubjectAccessReview, and
 * LocalSubjectAccessReview within a namespace), "may I?" (SelfSubjectAccessReview, `kubectl auth can-i`) and
 * "what may I do here?" (SelfSubjectRulesReview, `kubectl auth can-i --list`). Nothing is stored: virtual
 * kinds the authorization module answers.
 */
import { field, kindSchema, str } from '../../api/index.js';
import { virtualKind } from '../virtual.js';
import {
  selfSubjectAccessReviewSpecSchema,
  subjectAccessReviewSpecSchema,
  subjectAccessReviewStatusSchema,
  subjectRulesReviewStatusSchema,
} from './attributes.js';

const GROUP = 'authorization.k8s.io';

const review = (description: string, spec: typeof subjectAccessReviewSpecSchema) =>
  kindSchema({
    description,
    properties: {
      spec: field(2, spec),
      status: field(3, subjectAccessReviewStatusSchema),
    },
    required: ['spec'],
  });

export const subjectAccessReviewDefinition = virtualKind({
  group: GROUP,
  version: 'v1',
  resource: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  scope: 'Cluster',
  schema: review('Asks whether a user or group may perform an action.', subjectAccessReviewSpecSchema),
});

export const localSubjectAccessReviewDefinition = virtualKind({
  group: GROUP,
  version: 'v1',
  resource: 'localsubjectaccessreviews',
  kind: 'LocalSubjectAccessReview',
  scope: 'Namespaced',
  schema: review(
    "Asks whether a user or group may perform an action in the review's namespace.",
    subjectAccessReviewSpecSchema,
  ),
});

export const selfSubjectAccessReviewDefinition = virtualKind({
  group: GROUP,
  version: 'v1',
  resource: 'selfsubjectaccessreviews',
  kind: 'SelfSubjectAccessReview',
  scope: 'Cluster',
  schema: review('Asks whether the caller may perform an action.', selfSubjectAccessReviewSpecSchema),
});

export const selfSubjectRulesReviewDefinition = virtualKind({
  group: GROUP,
  version: 'v1',
  resource: 'selfsubjectrulesreviews',
  kind: 'SelfSubjectRulesReview',
  scope: 'Cluster',
  schema: kindSchema({
    description: 'Lists what the caller may do in a namespace, as far as the authorizers can tell.',
    properties: {
      spec: field(2, {
        type: 'object',
        description: 'Where to look.',
        properties: { namespace: str(1, 'The namespace to list the rules of.') },
        'x-pgkube-ref': 'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec',
      }),
      status: field(3, subjectRulesReviewStatusSchema),
    },
    required: ['spec'],
  }),
});
