/**
 * The schemas authorization.k8s.io's access reviews share: what is asked (resource or non-resource
 * attributes, with the selectors of AuthorizeWithSelectors) and what is answered. Field numbers are kube's
 * generated.proto ones, so the reviews also speak Protobuf.
 */
import { bool, field, labelSelectorRequirementSchema, pointer, str, type Schema } from '../../api/index.js';
import { userInfoSchema } from '../authentication/user-info.js';

const strings = (n: number, description: string): Schema =>
  field(n, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }, description);

const requirement = (ref: string, description: string): Schema => ({
  type: 'object',
  description,
  required: ['key', 'operator'],
  properties: {
    key: str(1, 'The key the requirement applies to.'),
    operator: str(2, 'How the key relates to the values: In, NotIn, Exists or DoesNotExist.'),
    values: strings(3, 'The values; empty for Exists and DoesNotExist.'),
  },
  'x-pgkube-ref': ref,
});

const selectorAttributes = (ref: string, requirementSchema: Schema, what: string): Schema => ({
  type: 'object',
  description: `A ${what} that limits what is asked; it can only narrow the request, never widen it.`,
  properties: {
    rawSelector: str(1, `The ${what} as a query parameter would carry it; not together with requirements.`),
    requirements: field(2, {
      type: 'array',
      description: `The ${what}, parsed; all must hold.`,
      items: requirementSchema,
      'x-kubernetes-list-type': 'atomic',
    }),
  },
  'x-pgkube-ref': ref,
});

export const resourceAttributesSchema: Schema = {
  type: 'object',
  description: 'A request for a resource, as the authorizers see one.',
  properties: {
    fieldSelector: field(
      8,
      pointer(
        selectorAttributes(
          'io.k8s.api.authorization.v1.FieldSelectorAttributes',
          requirement(
            'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement',
            'One term of a field selector.',
          ),
          'field selector',
        ),
      ),
    ),
    group: str(3, 'The API group; "*" means all.'),
    labelSelector: field(
      9,
      pointer(
        selectorAttributes(
          'io.k8s.api.authorization.v1.LabelSelectorAttributes',
          labelSelectorRequirementSchema,
          'label selector',
        ),
      ),
    ),
    name: str(7, 'The object asked about; empty means all.'),
    namespace: str(1, 'The namespace; empty means all namespaces (or a cluster-scoped resource).'),
    resource: str(5, 'The resource; "*" means all.'),
    subresource: str(6, 'The subresource; "*" means all.'),
    verb: str(
      2,
      'The verb: get, list, watch, create, update, patch, delete, deletecollection, or any other.',
    ),
    version: str(4, 'The API version; "*" means all.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.ResourceAttributes',
};

export const nonResourceAttributesSchema: Schema = {
  type: 'object',
  description: 'A request for a path that is no resource (/healthz, /version, ...).',
  properties: {
    path: str(1, 'The URL path.'),
    verb: str(2, 'The lowercase HTTP method (get, post, ...).'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.NonResourceAttributes',
};

/** SubjectAccessReviewSpec; LocalSubjectAccessReview uses it too */
export const subjectAccessReviewSpecSchema: Schema = {
  type: 'object',
  description: 'What is asked, and for whom; exactly one of resourceAttributes and nonResourceAttributes.',
  properties: {
    extra: field(5, { ...userInfoSchema.properties!.extra, description: "The user's extra attributes." }),
    groups: strings(4, 'The groups of the user asked about.'),
    nonResourceAttributes: field(2, pointer(nonResourceAttributesSchema)),
    resourceAttributes: field(1, pointer(resourceAttributesSchema)),
    uid: str(6, 'The UID of the user asked about.'),
    user: str(3, 'The user asked about; user or groups is required.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.SubjectAccessReviewSpec',
};

export const selfSubjectAccessReviewSpecSchema: Schema = {
  type: 'object',
  description: 'What is asked for the caller; exactly one of resourceAttributes and nonResourceAttributes.',
  properties: {
    nonResourceAttributes: field(2, pointer(nonResourceAttributesSchema)),
    resourceAttributes: field(1, pointer(resourceAttributesSchema)),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec',
};

export const subjectAccessReviewStatusSchema: Schema = {
  type: 'object',
  description: 'The answer, filled by the server.',
  required: ['allowed'],
  properties: {
    allowed: bool(1, 'Whether the action is allowed.'),
    denied: bool(4, 'Whether an authorizer explicitly denied it; false when nobody decided.'),
    evaluationError: str(3, 'What kept an authorizer from deciding; the answer may still stand.'),
    reason: str(2, 'Why, as the authorizers said.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
};

const resourceRuleSchema: Schema = {
  type: 'object',
  description: 'Verbs allowed on resources.',
  required: ['verbs'],
  properties: {
    apiGroups: strings(2, 'API groups; "*" means all.'),
    resourceNames: strings(4, 'Names of objects; empty means all.'),
    resources: strings(3, 'Resources; "*" means all, "*/foo" a subresource of all.'),
    verbs: strings(1, 'Verbs; "*" means all.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.ResourceRule',
};

const nonResourceRuleSchema: Schema = {
  type: 'object',
  description: 'Verbs allowed on non-resource paths.',
  required: ['verbs'],
  properties: {
    nonResourceURLs: strings(2, 'Paths; a trailing "*" matches a prefix.'),
    verbs: strings(1, 'Verbs; "*" means all.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.NonResourceRule',
};

const list = (n: number, items: Schema, description: string): Schema =>
  field(n, { type: 'array', description, items, 'x-kubernetes-list-type': 'atomic' });

export const subjectRulesReviewStatusSchema: Schema = {
  type: 'object',
  description: 'What the caller may do in the namespace, as far as the authorizers can tell.',
  required: ['resourceRules', 'nonResourceRules', 'incomplete'],
  properties: {
    evaluationError: str(4, 'What kept an authorizer from listing its rules.'),
    incomplete: bool(3, 'True when an authorizer could not list everything it allows (a webhook).'),
    nonResourceRules: list(2, nonResourceRuleSchema, 'The non-resource rules.'),
    resourceRules: list(1, resourceRuleSchema, 'The resource rules.'),
  },
  'x-pgkube-ref': 'io.k8s.api.authorization.v1.SubjectRulesReviewStatus',
};
