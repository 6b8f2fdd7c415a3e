/** Printer columns, selectable fields, the scale subresource and conversion, as kube words them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../api/index.js';
import { widgetCRD } from './spec-crds.js';
import type { CustomResourceDefinition } from './types.js';
import { validateCRD, validateCRDUpdate } from './validation.js';

const show = (crd: CustomResourceDefinition): string[] => validateCRD(crd).map(formatFieldError);

describe('printer columns', () => {
  const cases: { name: string; cols: unknown[]; want: string[] }[] = [
    {
      name: 'kube-style columns',
      cols: [
        {
          name: 'Ready',
          type: 'string',
          jsonPath: '.status.conditions[?(@.type=="Ready")].status',
          priority: 1,
        },
      ],
      want: [],
    },
    {
      name: 'name, type and path are required',
      cols: [{}],
      want: [
        'spec.additionalPrinterColumns[0].name: Required value',
        'spec.additionalPrinterColumns[0].type: Required value: must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].JSONPath: Required value',
      ],
    },
    {
      name: 'known types and formats, paths starting with a dot',
      cols: [{ name: 'A', type: 'float', format: 'uuid', jsonPath: 'spec.a' }],
      want: [
        'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.a": must be a simple json path starting with .',
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const crd = widgetCRD((x) => {
        x.spec.versions![0].additionalPrinterColumns = c.cols as never;
      });
      assert.deepEqual(show(crd), c.want);
    });
});

describe('selectable fields', () => {
  const sel = (...paths: string[]) => paths.map((jsonPath) => ({ jsonPath }));
  const V = 'spec.selectableFields';
  const cases: { name: string; fields: unknown[]; want: string[] }[] = [
    { name: 'string and integer fields', fields: sel('.spec.color', '.spec.replicas'), want: [] },
    {
      name: 'paths into the schema, outside metadata, to scalars',
      fields: [
        {},
        ...sel('.spec.size', '.metadata.name', '.spec', "['spec']['color']", '.spec.color', '.spec[0]'),
      ],
      want: [
        `${V}[0].jsonPath: Required value`,
        `${V}[1].jsonPath: Invalid value: ".spec.size": is an invalid path: does not refer to a valid field`,
        `${V}[2].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field`,
        `${V}[3].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
        `${V}[4].jsonPath: Invalid value: "['spec']['color']": is an invalid path: array notation is not allowed`,
        `${V}[6].jsonPath: Invalid value: ".spec[0]": is an invalid path: array notation is not allowed`,
      ],
    },
    {
      name: 'unique',
      fields: sel('.spec.color', '.spec.color'),
      want: [`${V}[1].jsonPath: Duplicate value: ".spec.color"`],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const crd = widgetCRD((x) => {
        x.spec.versions![0].selectableFields = c.fields as never;
      });
      assert.deepEqual(show(crd), c.want);
    });

  it('at most eight', () => {
    const crd = widgetCRD((x) => {
      const props = x.spec.versions![0].schema!.openAPIV3Schema!.properties!.spec.properties!;
      for (let i = 0; i < 9; i++) props[`f${i}`] = { type: 'boolean' };
      x.spec.versions![0].selectableFields = Array.from({ length: 9 }, (_, i) => ({
        jsonPath: `.spec.f${i}`,
      }));
    });
    assert.deepEqual(show(crd), [`${V}: Too many: 9: must have at most 8 items`]);
  });
});

describe('scale subresource', () => {
  const cases: { name: string; scale: unknown; want: string[] }[] = [
    {
      name: 'spec, status and selector paths',
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      want: [],
    },
    {
      name: 'both replica paths are required',
      scale: {},
      want: [
        'spec.subresources.scale.specReplicasPath: Required value',
        'spec.subresources.scale.statusReplicasPath: Required value',
      ],
    },
    {
      name: 'paths under .spec and .status',
      scale: {
        specReplicasPath: '.status.replicas',
        statusReplicasPath: 'status.replicas',
        labelSelectorPath: '.metadata.labels',
      },
      want: [
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const crd = widgetCRD((x) => {
        x.spec.versions![0].subresources!.scale = c.scale as never;
      });
      assert.deepEqual(show(crd), c.want);
    });
});

describe('conversion', () => {
  const C = 'spec.conversion';
  const cases: { name: string; conversion: unknown; want: string[] }[] = [
    { name: 'None', conversion: { strategy: 'None' }, want: [] },
    {
      name: 'a webhook by URL',
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'https://conv.example.com/convert' },
          conversionReviewVersions: ['v1'],
        },
      },
      want: [],
    },
    {
      name: 'a webhook by service',
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 'conv', namespace: 'ns', path: '/convert', port: 8443 } },
          conversionReviewVersions: ['v1beta1'],
        },
      },
      want: [],
    },
    {
      name: 'strategy is None or Webhook',
      conversion: { strategy: 'Magic' },
      want: [`${C}.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"`],
    },
    {
      name: 'a webhook needs a client config and review versions',
      conversion: { strategy: 'Webhook' },
      want: [
        `${C}.webhookClientConfig: Required value: required when strategy is set to Webhook`,
        `${C}.conversionReviewVersions: Required value`,
      ],
    },
    {
      name: 'exactly one of url and service',
      conversion: { strategy: 'Webhook', webhook: { clientConfig: {}, conversionReviewVersions: ['v1'] } },
      want: [`${C}.webhookClientConfig: Required value: exactly one of url or service is required`],
    },
    {
      name: 'an https URL without user, query or fragment',
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'http://u:p@conv.example.com/x?a=b#frag' },
          conversionReviewVersions: ['v1'],
        },
      },
      want: [
        `${C}.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        `${C}.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL`,
        `${C}.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL`,
        `${C}.webhookClientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL`,
      ],
    },
    {
      name: 'a service with name, namespace, port and a clean path',
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { service: { port: 0, path: 'a//B' } }, conversionReviewVersions: ['v1'] },
      },
      want: [
        `${C}.webhookClientConfig.service.name: Required value: service name is required`,
        `${C}.webhookClientConfig.service.namespace: Required value: service namespace is required`,
        `${C}.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`,
        `${C}.webhookClientConfig.service.path: Invalid value: "a//B": must start with a '/'`,
        `${C}.webhookClientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty`,
        `${C}.webhookClientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty`,
        `${C}.webhookClientConfig.service.path: Invalid value: "a//B": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'review versions: unique labels, one this server knows',
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'https://c' }, conversionReviewVersions: ['v2', 'v2', 'V3'] },
      },
      want: [
        `${C}.conversionReviewVersions[1]: Invalid value: "v2": duplicate version`,
        `${C}.conversionReviewVersions[2]: Invalid value: "V3": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `${C}.conversionReviewVersions: Invalid value: ["v2","v2","V3"]: must include at least one of v1, v1beta1`,
      ],
    },
    {
      name: 'no webhook settings without the Webhook strategy',
      conversion: {
        strategy: 'None',
        webhook: { clientConfig: { url: 'https://c' }, conversionReviewVersions: ['v1'] },
      },
      want: [
        `${C}.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook`,
        `${C}.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook`,
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const crd = widgetCRD((x) => {
        x.spec.conversion = c.conversion as never;
      });
      assert.deepEqual(show(crd), c.want);
    });

  it('a bad caBundle is refused once the CRD is Established', () => {
    const conversion = {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: 'https://c', caBundle: Buffer.from('nope').toString('base64') },
        conversionReviewVersions: ['v1'],
      },
    };
    const old = widgetCRD((x) => {
      x.status!.conditions = [{ type: 'Established', status: 'True' }];
    });
    const crd = widgetCRD((x) => {
      x.status!.conditions = [{ type: 'Established', status: 'True' }];
      x.spec.conversion = conversion as never;
    });
    assert.deepEqual(show(widgetCRD((x) => (x.spec.conversion = conversion as never))), []);
    assert.deepEqual(validateCRDUpdate(crd, old).map(formatFieldError), [
      `${C}.webhookClientConfig.caBundle: Invalid value: "bm9wZQ==": unable to load root certificates: unable to parse bytes as PEM block`,
    ]);
  });
});
