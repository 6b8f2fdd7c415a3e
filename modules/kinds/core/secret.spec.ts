import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError } from '../../api/index.js';
import type { KubeObject } from '../../api/index.js';
import { secretDefinition, secretStrategy } from './secret.js';
import { systemContext } from '../../api/index.js';

const ctx = systemContext();

const show = (errs: FieldError[] = []): string[] => errs.map(formatFieldError);
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (extra: Partial<KubeObject> = {}, meta: KubeObject['metadata'] = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'ns', ...meta },
  ...extra,
});

describe('Secret defaults', () => {
  it('type defaults to Opaque', () => {
    const obj = secret();
    secretStrategy.defaults?.(obj, ctx);
    assert.equal(obj.type, 'Opaque');
  });
  it('an explicit type is kept', () => {
    const obj = secret({ type: 'kubernetes.io/tls' });
    secretStrategy.defaults?.(obj, ctx);
    assert.equal(obj.type, 'kubernetes.io/tls');
  });
  it('stringData is merged into data (overriding) and dropped', () => {
    const obj = secret({ data: { a: b64('old'), keep: b64('k') }, stringData: { a: 'new', b: 'é' } });
    secretStrategy.defaults?.(obj, ctx);
    assert.deepEqual(obj.data, { a: b64('new'), keep: b64('k'), b: b64('é') });
    assert.equal('stringData' in obj, false);
  });
  it('an empty stringData leaves data absent', () => {
    const obj = secret({ stringData: {} });
    secretStrategy.defaults?.(obj, ctx);
    assert.equal('data' in obj, false);
    assert.equal('stringData' in obj, false);
  });
});

describe('Secret type rules', () => {
  const dockerJson = b64('{"auths":{}}');
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'Opaque needs nothing', obj: secret({ type: 'Opaque' }), want: [] },
    { name: 'unknown types need nothing', obj: secret({ type: 'example.com/custom' }), want: [] },
    {
      name: 'service-account-token needs the account name annotation',
      obj: secret({ type: 'kubernetes.io/service-account-token' }),
      want: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
    },
    {
      name: 'service-account-token with the annotation',
      obj: secret(
        { type: 'kubernetes.io/service-account-token' },
        { annotations: { 'kubernetes.io/service-account.name': 'sa' } },
      ),
      want: [],
    },
    {
      name: 'dockercfg needs .dockercfg',
      obj: secret({ type: 'kubernetes.io/dockercfg' }),
      want: ['data[.dockercfg]: Required value'],
    },
    {
      name: 'dockercfg must hold a JSON object',
      obj: secret({ type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64('{"a":') } }),
      want: ['data[.dockercfg]: Invalid value: "<secret contents redacted>": unexpected end of JSON input'],
    },
    {
      name: 'dockerconfigjson needs .dockerconfigjson',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockercfg': dockerJson } }),
      want: ['data[.dockerconfigjson]: Required value'],
    },
    {
      name: 'dockerconfigjson rejects non-objects',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('[]') } }),
      want: [
        'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
    },
    {
      name: 'dockerconfigjson valid',
      obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': dockerJson } }),
      want: [],
    },
    {
      name: 'basic-auth needs username or password',
      obj: secret({ type: 'kubernetes.io/basic-auth', data: {} }),
      want: ['data[username]: Required value', 'data[password]: Required value'],
    },
    {
      name: 'basic-auth with an empty password only',
      obj: secret({ type: 'kubernetes.io/basic-auth', data: { password: '' } }),
      want: [],
    },
    {
      name: 'ssh-auth needs a non-empty key',
      obj: secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }),
      want: ['data[ssh-privatekey]: Required value'],
    },
    {
      name: 'tls needs both cert and key',
      obj: secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }),
      want: ['data[tls.key]: Required value'],
    },
    {
      name: 'tls needs both, reported in order',
      obj: secret({ type: 'kubernetes.io/tls' }),
      want: ['data[tls.crt]: Required value', 'data[tls.key]: Required value'],
    },
    {
      name: 'keys and standard finalizers',
      obj: secret({ type: 'Opaque', data: { 'bad key': b64('x') } }, { finalizers: ['mine'] }),
      want: [
        'metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified',
        "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
    },
    {
      name: 'size counts decoded bytes',
      obj: secret({ type: 'Opaque', data: { big: Buffer.alloc(1024 * 1024 + 1).toString('base64') } }),
      want: ['data: Too long: may not be more than 1048576 bytes'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(secretStrategy.validate?.(c.obj, ctx)), c.want));
  }
});

describe('Secret updates', () => {
  const old = secret({ type: 'Opaque', immutable: true, data: { a: b64('x') } });
  const cases: { name: string; next: KubeObject; old?: KubeObject; want: string[] }[] = [
    {
      name: 'metadata-only change of an immutable secret',
      next: secret({ type: 'Opaque', immutable: true, data: { a: b64('x') } }, { labels: { x: 'y' } }),
      want: [],
    },
    {
      name: 'type is immutable',
      old: secret({ type: 'kubernetes.io/tls' }),
      next: secret({ type: 'Opaque' }),
      want: ['type: Invalid value: "Opaque": field is immutable'],
    },
    {
      name: 'data of an immutable secret',
      next: secret({ type: 'Opaque', immutable: true, data: { a: b64('y') } }),
      want: ['data: Forbidden: field is immutable when `immutable` is set'],
    },
    {
      name: 'immutable cannot be unset',
      next: secret({ type: 'Opaque', data: { a: b64('x') } }),
      want: ['immutable: Forbidden: field is immutable when `immutable` is set'],
    },
    {
      name: 'a mutable secret may become immutable while changing data',
      old: secret({ type: 'Opaque', data: { a: b64('x') } }),
      next: secret({ type: 'Opaque', immutable: true, data: { a: b64('y') } }),
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () =>
      assert.deepEqual(show(secretStrategy.validateUpdate?.(c.next, c.old ?? old, ctx)), c.want),
    );
  }
});

describe('Secret field selectors and columns', () => {
  it('selects by type', () => {
    assert.deepEqual(secretStrategy.selectableFields?.(secret({ type: 'kubernetes.io/tls' })), {
      type: 'kubernetes.io/tls',
    });
  });
  it('prints type and the number of data entries', () => {
    const obj = secret({ type: 'Opaque', data: { a: '', b: '' } });
    const cells = secretDefinition.printerColumns?.map((c) => c.cell?.(obj, Date.now()));
    assert.deepEqual(cells?.slice(1, 3), ['Opaque', 2]);
  });
});
