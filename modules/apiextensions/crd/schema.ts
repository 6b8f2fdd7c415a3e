/**
 * The CustomResourceDefinition kind's own schema (OpenAPI, `kubectl explain`, decoding), shaped like
 * kube's published apiextensions.k8s.io/v1 types, and its printer columns.
 *
 * No protobuf field numbers: in kube's protobuf form JSONSchemaProps wraps `items`, `additionalProperties`,
 * `default`, `enum` and `example` in messages whose shape differs from the JSON one, which our codec cannot
 * express, and kube's own clients talk JSON to this group. Without numbers the kind answers protobuf with 406.
 */
import { objectMetaSchema, type Schema } from '../../api/index.js';
import type { PrinterColumn } from '../../registry/index.js';
import type { KubeObject } from '../../api/index.js';

const v1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const ref = (name: string, schema: Schema): Schema => ({ ...schema, 'x-pgkube-ref': `${v1}.${name}` });

const str = (description: string): Schema => ({ type: 'string', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
const double = (description: string): Schema => ({ type: 'number', format: 'double', description });
const strings = (description: string, listType: 'atomic' | 'set' = 'atomic'): Schema => ({
  type: 'array',
  description,
  items: { type: 'string' },
  'x-kubernetes-list-type': listType,
});

/**
 * Values of any JSON type (`default`, `enum` entries, `example`) and the fields that are either a schema or
 * something else (`items`: a schema or a list of them; `additionalProperties`: a schema or a boolean). Kube
 * publishes them without a type, so they are kept as written and validation judges them.
 */
const anyJSON = (name: string, description: string): Schema =>
  ref(name, { description, 'x-kubernetes-preserve-unknown-fields': true });

/** JSONSchemaProps contains itself: the nodes below are filled in once the object exists. */
export const jsonSchemaPropsSchema: Schema = ref('JSONSchemaProps', {
  type: 'object',
  description: 'A JSON-Schema (OpenAPI v3) node, with the Kubernetes extensions a structural schema uses.',
});

const props = jsonSchemaPropsSchema;
const propsList = (description: string): Schema => ({ type: 'array', description, items: props });
const propsMap = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: props,
});

export const validationRuleSchema: Schema = ref('ValidationRule', {
  type: 'object',
  description: 'A CEL rule the value must satisfy, and how a failure is reported.',
  required: ['rule'],
  properties: {
    fieldPath: str("Where a failure is reported, relative to this node (e.g. `.spec.x` or `['a.b']`)."),
    message: str('The error message when the rule is false.'),
    messageExpression: str('A CEL expression that yields the error message.'),
    optionalOldSelf: bool('Run a transition rule on create too, with oldSelf an optional.'),
    reason: str(
      'FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate.',
    ),
    rule: str('The CEL expression; `self` is the value, `oldSelf` the old value in transition rules.'),
  },
});

props.properties = {
  $ref: str('Not supported by Kubernetes.'),
  $schema: str('Not supported by Kubernetes.'),
  additionalItems: anyJSON('JSONSchemaPropsOrBool', 'Not supported by Kubernetes.'),
  additionalProperties: anyJSON(
    'JSONSchemaPropsOrBool',
    'The schema of the values of a map (or a boolean); excludes properties.',
  ),
  allOf: propsList('All of these schemas must hold.'),
  anyOf: propsList('At least one of these schemas must hold.'),
  default: anyJSON('JSON', 'The value set where the field is absent; it must validate against the schema.'),
  definitions: propsMap('Not supported by Kubernetes.'),
  dependencies: {
    type: 'object',
    description: 'Not supported by Kubernetes.',
    additionalProperties: anyJSON('JSONSchemaPropsOrStringArray', 'A schema or a list of property names.'),
  },
  description: str('What the value means.'),
  enum: { type: 'array', description: 'The allowed values.', items: anyJSON('JSON', 'An allowed value.') },
  example: anyJSON('JSON', 'An example value.'),
  exclusiveMaximum: bool('The maximum itself is not allowed.'),
  exclusiveMinimum: bool('The minimum itself is not allowed.'),
  externalDocs: ref('ExternalDocumentation', {
    type: 'object',
    description: 'Where more documentation is.',
    properties: { description: str('What the link holds.'), url: str('The address.') },
  }),
  format: str('A format the value must have (e.g. int32, date-time, uri, byte).'),
  id: str('Not supported by Kubernetes.'),
  items: anyJSON('JSONSchemaPropsOrArray', 'The schema of the items of an array.'),
  maxItems: int64('Most items an array may hold.'),
  maxLength: int64('Longest string allowed, in characters.'),
  maxProperties: int64('Most properties an object may hold.'),
  maximum: double('Largest number allowed.'),
  minItems: int64('Fewest items an array must hold.'),
  minLength: int64('Shortest string allowed, in characters.'),
  minProperties: int64('Fewest properties an object must hold.'),
  minimum: double('Smallest number allowed.'),
  multipleOf: double('The number must be a multiple of this.'),
  not: props,
  nullable: bool('null is allowed and kept (otherwise it is dropped or refused).'),
  oneOf: propsList('Exactly one of these schemas must hold.'),
  pattern: str('A regular expression (RE2) the string must match.'),
  patternProperties: propsMap('Not supported by Kubernetes.'),
  properties: propsMap('The fields of an object, by name.'),
  required: strings('Fields that must be present.'),
  title: str('A short title.'),
  type: str('object, array, string, integer, number or boolean.'),
  uniqueItems: bool('Not supported by Kubernetes when true.'),
  'x-kubernetes-embedded-resource': bool(
    'The value is a whole object with apiVersion, kind and metadata, validated as such.',
  ),
  'x-kubernetes-int-or-string': bool('The value is an integer or a string.'),
  'x-kubernetes-list-map-keys': strings('The item fields that identify an item of a map-type list.'),
  'x-kubernetes-list-type': str('atomic, set or map: how lists merge under server-side apply.'),
  'x-kubernetes-map-type': str('granular or atomic: how objects merge under server-side apply.'),
  'x-kubernetes-preserve-unknown-fields': bool('Fields the schema does not name are kept, not pruned.'),
  'x-kubernetes-validations': {
    type: 'array',
    description: 'CEL rules the value must satisfy.',
    items: validationRuleSchema,
    'x-kubernetes-list-map-keys': ['rule'],
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-patch-merge-key': 'rule',
    'x-kubernetes-patch-strategy': 'merge',
  },
};

const namesSchema = ref('CustomResourceDefinitionNames', {
  type: 'object',
  description: 'The names a custom resource is served under.',
  required: ['plural', 'kind'],
  properties: {
    categories: strings('Groups of resources this one belongs to, e.g. `all`.'),
    kind: str('The kind, in CamelCase.'),
    listKind: str('The kind of its lists; defaults to `<kind>List`.'),
    plural: str('The resource name in URLs, lowercase.'),
    shortNames: strings('Short aliases for the CLI.'),
    singular: str('The singular name; defaults to the lowercased kind.'),
  },
});

const serviceReferenceSchema = ref('ServiceReference', {
  type: 'object',
  description: 'A Service the webhook is reached through.',
  required: ['namespace', 'name'],
  properties: {
    name: str('Name of the service.'),
    namespace: str('Namespace of the service.'),
    path: str('URL path requests are sent to.'),
    port: { type: 'integer', format: 'int32', description: 'Port of the service; defaults to 443.' },
  },
});

const conversionSchema = ref('CustomResourceConversion', {
  type: 'object',
  description: 'How objects are converted between the versions.',
  required: ['strategy'],
  properties: {
    strategy: str('None (only apiVersion changes) or Webhook.'),
    webhook: ref('WebhookConversion', {
      type: 'object',
      description: 'The webhook that converts, when the strategy is Webhook.',
      required: ['conversionReviewVersions'],
      properties: {
        clientConfig: ref('WebhookClientConfig', {
          type: 'object',
          description: 'How to reach the webhook: a URL or a Service.',
          properties: {
            caBundle: { type: 'string', format: 'byte', description: 'PEM CA certificates for its TLS.' },
            service: serviceReferenceSchema,
            url: str('https URL of the webhook.'),
          },
        }),
        conversionReviewVersions: strings(
          'ConversionReview versions the webhook understands, preferred first.',
        ),
      },
    }),
  },
});

const columnSchema = ref('CustomResourceColumnDefinition', {
  type: 'object',
  description: 'A column `kubectl get` shows for the custom resource.',
  required: ['name', 'type', 'jsonPath'],
  properties: {
    description: str('What the column shows.'),
    format: str('A format refining the type, e.g. int32, date-time, name.'),
    jsonPath: str('A simple JSONPath into the object, e.g. `.spec.replicas`.'),
    name: str('The column header.'),
    priority: { type: 'integer', format: 'int32', description: '0 in the standard view, more in wide.' },
    type: str('integer, number, string, boolean or date.'),
  },
});

const subresourcesSchema = ref('CustomResourceSubresources', {
  type: 'object',
  description: 'Subresources served beside the custom resource.',
  properties: {
    scale: ref('CustomResourceSubresourceScale', {
      type: 'object',
      description: 'Serves /scale as an autoscaling/v1 Scale.',
      required: ['specReplicasPath', 'statusReplicasPath'],
      properties: {
        labelSelectorPath: str('Path to the serialized label selector, under .spec or .status.'),
        specReplicasPath: str('Path to the desired replicas, under .spec.'),
        statusReplicasPath: str('Path to the observed replicas, under .status.'),
      },
    }),
    status: ref('CustomResourceSubresourceStatus', {
      type: 'object',
      description: 'Serves /status; the main resource then ignores status changes. Always empty.',
    }),
  },
});

const versionSchema = ref('CustomResourceDefinitionVersion', {
  type: 'object',
  description: 'One version of the custom resource.',
  required: ['name', 'served', 'storage'],
  properties: {
    additionalPrinterColumns: {
      type: 'array',
      description: 'Extra `kubectl get` columns.',
      items: columnSchema,
    },
    deprecated: bool('Requests to this version get a deprecation warning.'),
    deprecationWarning: str('The warning to send instead of the default one.'),
    name: str('The version name, as in `/apis/<group>/<version>`.'),
    schema: ref('CustomResourceValidation', {
      type: 'object',
      description: 'The schema objects of this version are validated, pruned and defaulted with.',
      properties: { openAPIV3Schema: props },
    }),
    selectableFields: {
      type: 'array',
      description: 'Fields a field selector may name.',
      items: ref('SelectableField', {
        type: 'object',
        required: ['jsonPath'],
        properties: { jsonPath: str('A simple JSONPath to a string, integer or boolean field.') },
      }),
      'x-kubernetes-list-type': 'atomic',
    },
    served: bool('This version is served.'),
    storage: bool('Objects are stored in this version; exactly one version has it.'),
    subresources: subresourcesSchema,
  },
});

const conditionSchema = ref('CustomResourceDefinitionCondition', {
  type: 'object',
  description: 'A condition of the definition.',
  required: ['type', 'status'],
  properties: {
    lastTransitionTime: {
      type: 'string',
      format: 'date-time',
      description: 'When the status last changed.',
      'x-pgkube-ref': 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    },
    message: str('Details for humans.'),
    reason: str('Why, in CamelCase.'),
    status: str('True, False or Unknown.'),
    type: str('Established, NamesAccepted, NonStructuralSchema, Terminating, ...'),
  },
});

export const crdSchema: Schema = ref('CustomResourceDefinition', {
  type: 'object',
  description: 'A definition of a custom resource: its group, names, versions and schemas.',
  required: ['spec'],
  properties: {
    apiVersion: str('The versioned schema of this object, here "apiextensions.k8s.io/v1".'),
    kind: str('The kind of this object, in CamelCase.'),
    metadata: objectMetaSchema,
    spec: ref('CustomResourceDefinitionSpec', {
      type: 'object',
      description: 'What the custom resource is.',
      required: ['group', 'names', 'scope', 'versions'],
      properties: {
        conversion: conversionSchema,
        group: str('The API group, a DNS subdomain with at least one dot.'),
        names: namesSchema,
        preserveUnknownFields: bool('Deprecated: keep unknown fields; must be false in v1.'),
        scope: str('Cluster or Namespaced.'),
        versions: {
          type: 'array',
          description: 'The versions, each served or not; exactly one is the storage version.',
          items: versionSchema,
          'x-kubernetes-list-type': 'atomic',
        },
      },
    }),
    status: ref('CustomResourceDefinitionStatus', {
      type: 'object',
      description: 'What the server made of the definition.',
      properties: {
        acceptedNames: namesSchema,
        conditions: {
          type: 'array',
          description: 'Conditions of the definition.',
          items: conditionSchema,
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
        },
        storedVersions: strings('Versions objects were ever stored in; shrinks only by migration.'),
      },
    }),
  },
});

/**
 * kube's default table for kinds without printers of their own (CRDs have none): the name and the creation
 * time as RFC 3339, hence `kubectl get crd`'s NAME and CREATED AT.
 */
export const crdPrinterColumns: PrinterColumn[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name of the object, unique within its namespace.',
    priority: 0,
    jsonPath: '.metadata.name',
  },
  {
    name: 'Created At',
    type: 'date',
    description: 'When the object was created, in UTC.',
    priority: 0,
    jsonPath: '.metadata.creationTimestamp',
    cell: (obj: KubeObject) => {
      const at = obj.metadata?.creationTimestamp;
      return typeof at === 'string' ? at : '0001-01-01T00:00:00Z';
    },
  },
];
