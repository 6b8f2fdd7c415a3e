/** validateCRD and validateCRDUpdate: kube's paths and messages for names, versions, status and updates. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError, type FieldError, type Schema } from '../../api/index.js';
import { featureSchema, widgetCRD, widgetVersion } from './spec-crds.js';
import type { CustomResourceDefinition } from './types.js';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.js';

const show = (errs: FieldError[]): string[] => errs.map(formatFieldError);
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('validateCRD', () => {
  const cases: { name: string; mutate: (crd: CustomResourceDefinition) => void; want: string[] }[] = [
    { name: 'a valid CRD', mutate: () => {}, want: [] },
    {
      name: 'a CRD using every schema feature',
      mutate: (c) => {
        c.spec.versions![0].schema = { openAPIV3Schema: featureSchema() };
        delete c.spec.versions![0].subresources!.scale;
        c.spec.versions![0].additionalPrinterColumns = [];
      },
      want: [],
    },
    {
      name: 'the name is plural.group',
      mutate: (c) => {
        c.metadata.name = 'widget.example.com';
      },
      want: ['metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group'],
    },
    {
      name: 'the group needs a dot',
      mutate: (c) => {
        c.spec.group = 'example';
        c.metadata.name = 'widgets.example';
      },
      want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
    },
    {
      name: 'group and scope are required',
      mutate: (c) => {
        c.spec.group = '';
        c.spec.scope = '';
        c.metadata.name = 'widgets.';
      },
      want: ['spec.group: Required value', 'spec.scope: Required value'],
    },
    {
      name: 'scope is Cluster or Namespaced',
      mutate: (c) => {
        c.spec.scope = 'Global';
      },
      want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
    },
    {
      name: 'names follow DNS-1035, kinds in mixed case',
      mutate: (c) => {
        c.spec.names = {
          plural: 'Widgets',
          singular: 'widget',
          kind: 'Wid_get',
          listKind: 'Wid_get',
          shortNames: ['w.d'],
          categories: ['All'],
        };
        c.metadata.name = 'Widgets.example.com';
      },
      want: [
        `spec.names.plural: Invalid value: "Widgets": ${dns1035}`,
        `spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${dns1035}`,
        `spec.names.listKind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${dns1035}`,
        `spec.names.shortNames[0]: Invalid value: "w.d": ${dns1035}`,
        'spec.names.listKind: Invalid value: "Wid_get": kind and listKind may not be the same',
        `spec.names.categories[0]: Invalid value: "All": ${dns1035}`,
      ],
    },
    {
      name: 'all four names are required',
      mutate: (c) => {
        c.spec.names = { plural: 'widgets' };
      },
      want: [
        'spec.names.singular: Required value',
        'spec.names.kind: Required value',
        'spec.names.listKind: Required value',
      ],
    },
    {
      name: 'at least one version, marked storage',
      mutate: (c) => {
        c.spec.versions = [];
        c.status = { storedVersions: [] };
      },
      want: [
        'spec.versions: Invalid value: []: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: []: must have at least one stored version',
      ],
    },
    {
      name: 'version names are unique DNS-1035 labels',
      mutate: (c) => {
        c.spec.versions = [widgetVersion('V1'), widgetVersion('V1', { storage: false })];
        c.status = { storedVersions: ['V1'] };
      },
      want: [
        `spec.versions[0].name: Invalid value: "V1": ${dns1035}`,
        `spec.versions[1].name: Invalid value: "V1": ${dns1035}`,
        'spec.versions: Invalid value: [...]: must contain unique version names',
        `spec.version: Invalid value: "V1": ${dns1035}`,
      ],
    },
    {
      name: 'deprecationWarning only on deprecated versions',
      mutate: (c) => {
        c.spec.versions![0].deprecationWarning = 'use v2';
      },
      want: [
        'spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions',
      ],
    },
    {
      name: 'deprecationWarning at most 256 bytes, printable',
      mutate: (c) => {
        c.spec.versions![0].deprecated = true;
        c.spec.versions![0].deprecationWarning = `${'x'.repeat(256)}\u0007`;
      },
      want: [
        `spec.versions[0].deprecationWarning: Invalid value: ${JSON.stringify(`${'x'.repeat(256)}\u0007`)}: must be <= 256 characters long`,
        `spec.versions[0].deprecationWarning: Invalid value: ${JSON.stringify(`${'x'.repeat(256)}\u0007`)}: must only contain printable UTF-8 characters; non-printable character found at index 256`,
      ],
    },
    {
      name: 'every version needs a schema',
      mutate: (c) => {
        delete c.spec.versions![0].schema;
        c.spec.versions![0].subresources = undefined;
        c.spec.versions![0].additionalPrinterColumns = undefined;
      },
      want: ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'],
    },
    {
      name: 'stored versions must still be versions',
      mutate: (c) => {
        c.status = { storedVersions: ['v1alpha1'] };
      },
      want: [
        'status.storedVersions: Invalid value: ["v1alpha1"]: must have the storage version v1',
        'status.storedVersions[0]: Invalid value: "v1alpha1": must appear in spec.versions',
      ],
    },
    {
      name: 'preserveUnknownFields cannot be true in v1',
      mutate: (c) => {
        c.spec.preserveUnknownFields = true;
      },
      want: [
        'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    },
    {
      name: 'protected groups need the approval annotation',
      mutate: (c) => {
        c.spec.group = 'things.k8s.io';
        c.metadata.name = 'widgets.things.k8s.io';
      },
      want: [
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    },
    {
      name: 'an approval must be a URL or say unapproved',
      mutate: (c) => {
        c.spec.group = 'things.k8s.io';
        c.metadata.name = 'widgets.things.k8s.io';
        c.metadata.annotations = { 'api-approved.kubernetes.io': 'yes' };
      },
      want: [
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    },
    {
      name: 'approved or unapproved protected groups are fine',
      mutate: (c) => {
        c.spec.group = 'things.k8s.io';
        c.metadata.name = 'widgets.things.k8s.io';
        c.metadata.annotations = {
          'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1',
        };
      },
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = show(validateCRD(widgetCRD(c.mutate)));
      // the versions list prints as a whole; only its message matters here
      assert.deepEqual(
        got.map((g) =>
          g.replace(/^spec\.versions: Invalid value: \[\{.*\}\]: /, 'spec.versions: Invalid value: [...]: '),
        ),
        c.want,
      );
    });
  }

  it('per-version schemas that differ are reported per version', () => {
    const crd = widgetCRD((c) => {
      const v2 = widgetVersion('v2', { storage: false });
      v2.schema!.openAPIV3Schema!.properties!.spec.properties!.size = { description: 'no type' };
      c.spec.versions!.push(v2);
    });
    assert.deepEqual(show(validateCRD(crd)), [
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('an identical schema in every version is judged once, as spec.validation', () => {
    const crd = widgetCRD((c) => {
      c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.size = {
        description: 'no type',
      };
      c.spec.versions!.push({ ...structuredClone(c.spec.versions![0]), name: 'v2', storage: false });
    });
    assert.deepEqual(show(validateCRD(crd)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('compiles the rules of each version schema at its own path', () => {
    const paths: string[] = [];
    const crd = widgetCRD((c) => {
      const v2 = widgetVersion('v2', { storage: false });
      v2.schema!.openAPIV3Schema!.description = 'the second version';
      c.spec.versions!.push(v2);
    });
    validateCRD(crd, { validateRules: (_s, path) => (paths.push(path), []) });
    assert.deepEqual(paths, [
      'spec.versions[0].schema.openAPIV3Schema',
      'spec.versions[1].schema.openAPIV3Schema',
    ]);
  });

  it('judges values of the wrong type instead of failing', () => {
    const crd = widgetCRD((c) => {
      (c.spec as Record<string, unknown>).group = 42;
      (c.spec.names as Record<string, unknown>).shortNames = 'wd';
    });
    assert.deepEqual(show(validateCRD(crd)), [
      'metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group',
      'spec.group: Required value',
    ]);
  });

  it('calls the plugged checks with the schema and its path', () => {
    const seen: string[] = [];
    const errs = validateCRD(widgetCRD(), {
      validateRules: (_schema, path) => {
        seen.push(`rules ${path}`);
        return [
          {
            type: 'Invalid',
            field: `${path}.x-kubernetes-validations[0].rule`,
            value: 'x',
            detail: 'compile error',
          },
        ];
      },
      validateDefault: (_schema, value, path) => {
        seen.push(`default ${path} ${JSON.stringify(value)}`);
        return [];
      },
    });
    assert.deepEqual(seen, [
      'default spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default 1',
      'rules spec.validation.openAPIV3Schema',
    ]);
    assert.deepEqual(show(errs), [
      'spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: "x": compile error',
    ]);
  });
});

const setOfObjects = (): Schema => ({
  type: 'array',
  'x-kubernetes-list-type': 'set',
  items: { type: 'object', properties: { a: { type: 'string' } } },
});

describe('validateCRDUpdate', () => {
  const established = (c: CustomResourceDefinition) => {
    c.status!.conditions = [{ type: 'Established', status: 'True' }];
  };
  const cases: {
    name: string;
    old?: (crd: CustomResourceDefinition) => void;
    mutate: (crd: CustomResourceDefinition) => void;
    want: string[];
  }[] = [
    { name: 'no change', mutate: () => {}, want: [] },
    {
      name: 'group and plural never change',
      mutate: (c) => {
        c.spec.group = 'example.org';
        c.spec.names!.plural = 'gadgets';
        c.metadata.name = 'gadgets.example.org';
      },
      want: [
        'spec.group: Invalid value: "example.org": field is immutable',
        'spec.names.plural: Invalid value: "gadgets": field is immutable',
      ],
    },
    {
      name: 'scope and kind may change until Established',
      mutate: (c) => {
        c.spec.scope = 'Cluster';
        c.spec.names!.kind = 'Gadget';
        c.spec.names!.listKind = 'GadgetList';
      },
      want: [],
    },
    {
      name: 'scope and kind are fixed once Established',
      old: established,
      mutate: (c) => {
        established(c);
        c.spec.scope = 'Cluster';
        c.spec.names!.kind = 'Gadget';
      },
      want: [
        'spec.scope: Invalid value: "Cluster": field is immutable',
        'spec.names.kind: Invalid value: "Gadget": field is immutable',
      ],
    },
    {
      name: 'a set of mergeable objects the stored CRD already had is let through',
      old: (c) => {
        c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.tags = setOfObjects();
      },
      mutate: (c) => {
        c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.more = setOfObjects();
      },
      want: [],
    },
    {
      name: 'a new set of mergeable objects is refused',
      mutate: (c) => {
        c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.tags = setOfObjects();
      },
      want: [
        'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set',
      ],
    },
    {
      name: 'a structural error is never let through in v1',
      old: (c) => {
        c.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!.size = {
          description: 'no type',
        };
      },
      mutate: () => {},
      want: [
        'spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = widgetCRD(c.old);
      const crd = widgetCRD(c.old);
      c.mutate(crd);
      assert.deepEqual(show(validateCRDUpdate(crd, old)), c.want);
    });
  }

  it('a status update judges the accepted names', () => {
    const crd = widgetCRD((c) => {
      c.status!.acceptedNames = { plural: 'Widgets', kind: 'Widget' };
    });
    assert.deepEqual(show(validateCRDStatusUpdate(crd)), [
      `status.acceptedNames.plural: Invalid value: "Widgets": ${dns1035}`,
    ]);
  });
});
