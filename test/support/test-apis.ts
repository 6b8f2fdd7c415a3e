/**
 * A kind that exists only for tests of API versioning: testing.pgkube.io Widget, served as v1 (stable),
 * v1beta1 (introduced before 1.22 so on by default; deprecated in 1.30, removed in 1.35) and v1alpha1 (off by
 * default). Built-in kinds of v1.32 have no deprecated or alpha versions to test with.
 */
import type { ResourceDefinition } from '../../modules/registry/index.js';
import { ageColumn, nameColumn } from '../../modules/kinds/index.js';
import { field, kindSchema, str } from '../../modules/api/index.js';

export const TEST_GROUP = 'testing.pgkube.io';

const schema = kindSchema({
  description: 'A test-only kind.',
  properties: {
    spec: field(2, {
      type: 'object',
      description: 'What the widget looks like.',
      properties: { color: str(1, 'Its color.') },
    }),
  },
});

export const widgetDefinition: ResourceDefinition = {
  group: TEST_GROUP,
  versions: ['v1', 'v1beta1', 'v1alpha1'],
  storageVersion: 'v1',
  lifecycle: {
    v1beta1: {
      introduced: '1.20',
      deprecated: '1.30',
      removed: '1.35',
      replacement: { group: TEST_GROUP, version: 'v1', kind: 'Widget' },
    },
    v1alpha1: { introduced: '1.31' },
  },
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  scope: 'Namespaced',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: ['status'],
  nameRule: 'dns1123Subdomain',
  schema,
  description: schema.description ?? '',
  printerColumns: [nameColumn, ageColumn],
  strategy: {},
};
