import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateDiscovery } from './negotiate.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const PB_V2 = 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('negotiateDiscovery', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['client-go 1.32 default', `${V2},${V2BETA1},application/json`, V2],
    ['v2beta1 preferred', `${V2BETA1},${V2},application/json`, V2BETA1],
    ['plain JSON', 'application/json', 'application/json'],
    ['no Accept header', undefined, 'application/json'],
    ['empty Accept header', '', 'application/json'],
    ['anything', '*/*', 'application/json'],
    ['application wildcard', 'application/*', 'application/json'],
    ['charset parameter', 'application/json; charset=utf-8', 'application/json'],
    [
      'parameters in another order',
      'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io',
      V2,
    ],
    [
      'spaces around parameters',
      'application/json; g=apidiscovery.k8s.io; v=v2; as=APIGroupDiscoveryList',
      V2,
    ],
    [
      'Table is not offered, falls back',
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      'application/json',
    ],
    ['Table only', 'application/json;as=Table;v=v1;g=meta.k8s.io', undefined],
    [
      'unknown discovery version',
      'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList',
      undefined,
    ],
    ['partial conversion', 'application/json;as=APIGroupDiscoveryList', undefined],
    ['higher q wins over order', `application/json;q=0.9,${V2}`, V2],
    ['lower q loses', `${V2};q=0.5,application/json`, 'application/json'],
    ['concrete beats wildcard at equal q', `*/*,${V2}`, V2],
    ['unsupported media type only', 'text/html', undefined],
    ['protobuf unsupported, JSON aggregated next', `${PB_V2},${V2}`, V2],
    ['server version parameter refused', 'application/json;sv=v1', undefined],
  ];
  for (const [name, accept, expected] of cases) {
    it(name, () => assert.equal(negotiateDiscovery(accept)?.contentType, expected));
  }

  it('reports the aggregated version and base media type', () => {
    assert.deepEqual(negotiateDiscovery(`${V2},application/json`), {
      aggregated: 'v2',
      mediaType: 'application/json',
      contentType: V2,
    });
    assert.deepEqual(negotiateDiscovery(V2BETA1)?.aggregated, 'v2beta1');
    assert.deepEqual(negotiateDiscovery('application/json'), {
      mediaType: 'application/json',
      contentType: 'application/json',
    });
  });

  it('uses the media types the caller can encode, in its order of preference', () => {
    const supported = ['application/json', 'application/vnd.kubernetes.protobuf'];
    assert.equal(negotiateDiscovery(`${PB_V2},${V2}`, supported)?.contentType, PB_V2);
    assert.equal(negotiateDiscovery('*/*', supported)?.mediaType, 'application/json');
    assert.equal(negotiateDiscovery('application/json', []), undefined);
  });
});
