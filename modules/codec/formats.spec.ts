import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/index.js';
import {
  checkText,
  checkYamlDepth,
  decodeBody,
  encodeBody,
  negotiateInput,
  negotiateOutput,
  yamlMaxDepth,
} from './formats.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).code;
  }
  return 0;
};

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).message;
  }
  return '';
};

describe('negotiation', () => {
  for (const [accept, format] of [
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/yaml', 'yaml'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json', 'json'],
    ['application/vnd.kubernetes.protobuf, application/json', 'json'],
    ['application/yaml;q=0.5, application/json', 'json'],
  ] as const) {
    it(`Accept ${accept} → ${format}`, () => assert.equal(negotiateOutput(accept).format, format));
  }
  it('Table and PartialObjectMetadata when the request can give them', () => {
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    assert.deepEqual(
      negotiateOutput(table, () => true),
      { format: 'json', conversion: { as: 'Table', version: 'v1' } },
    );
    assert.deepEqual(
      negotiateOutput(table, () => false),
      { format: 'json' },
    );
    const pom = 'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io';
    assert.deepEqual(negotiateOutput(pom, (c) => c.as === 'PartialObjectMetadataList').conversion, {
      as: 'PartialObjectMetadataList',
      version: 'v1beta1',
    });
    assert.equal(
      code(() => negotiateOutput('application/json;as=Table;v=v9;g=meta.k8s.io', () => true)),
      406,
    );
  });

  it('406 when nothing fits', () => {
    assert.equal(
      code(() => negotiateOutput('text/html')),
      406,
    );
    assert.equal(
      code(() => negotiateOutput('application/json;as=Table;v=v1;g=meta.k8s.io')),
      406,
    );
  });
  const all = () => true;

  it('Protobuf for kinds that have a form, in order of preference, the spec’s alias included', () => {
    const pb = 'application/vnd.kubernetes.protobuf';
    assert.deepEqual(negotiateOutput(`${pb}, application/json`, all, { protobuf: true }), {
      format: 'json',
      protobuf: true,
    });
    assert.deepEqual(negotiateOutput('application/vnd.orch.protobuf', all, { protobuf: true }), {
      format: 'json',
      protobuf: true,
    });
    assert.deepEqual(negotiateOutput(`${pb}, application/json`, all, {}), { format: 'json' });
    assert.deepEqual(negotiateOutput(`application/json, ${pb}`, all, { protobuf: true }), { format: 'json' });
    // wildcards pick JSON first, as kube's serializer order has it
    assert.deepEqual(negotiateOutput('application/*', all, { protobuf: true }), { format: 'json' });
    assert.equal(
      code(() => negotiateOutput(pb, all, {})),
      406,
    );
  });

  it('PartialObjectMetadata may be Protobuf (for any kind); Table never is', () => {
    const pom = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
    assert.deepEqual(negotiateOutput(pom, all, {}), {
      format: 'json',
      conversion: { as: 'PartialObjectMetadataList', version: 'v1' },
      protobuf: true,
    });
    const table = 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io';
    assert.equal(
      code(() => negotiateOutput(table, all, { protobuf: true })),
      406,
    );
    assert.deepEqual(
      negotiateOutput(`${table}, application/yaml;as=Table;v=v1;g=meta.k8s.io`, all, { protobuf: true }),
      {
        format: 'yaml',
        conversion: { as: 'Table', version: 'v1' },
      },
    );
  });

  it('watch streams: JSON or Protobuf; YAML first is 406 with the stream types', () => {
    const pb = 'application/vnd.kubernetes.protobuf';
    assert.deepEqual(negotiateOutput(pb, all, { protobuf: true, stream: true }), {
      format: 'json',
      protobuf: true,
    });
    assert.deepEqual(negotiateOutput(`${pb};stream=watch`, all, { protobuf: true, stream: true }), {
      format: 'json',
      protobuf: true,
    });
    assert.deepEqual(negotiateOutput(undefined, all, { protobuf: true, stream: true }), { format: 'json' });
    const streams =
      'only the following media types are accepted: application/json;stream=watch, ' +
      'application/vnd.kubernetes.protobuf;stream=watch';
    assert.equal(
      message(() =>
        negotiateOutput('application/yaml, application/json', all, { protobuf: true, stream: true }),
      ),
      streams,
    );
    assert.equal(
      message(() => negotiateOutput('text/html', all, { protobuf: true, stream: true })),
      streams,
    );
    // stream=watch needs a stream form; any other stream is not served
    assert.deepEqual(
      negotiateOutput('application/yaml;stream=watch, application/json', all, { protobuf: true }),
      {
        format: 'json',
      },
    );
    assert.equal(
      code(() => negotiateOutput('application/json;stream=other', all, { protobuf: true })),
      406,
    );
  });

  it('406 lists every type kube serves', () => {
    assert.equal(
      message(() => negotiateOutput('text/html')),
      'only the following media types are accepted: application/json, application/yaml, ' +
        'application/vnd.kubernetes.protobuf',
    );
  });

  it('415 on an unknown request type; JSON when unset', () => {
    assert.equal(negotiateInput(undefined), 'json');
    assert.equal(negotiateInput('application/yaml; charset=utf-8'), 'yaml');
    assert.equal(
      code(() => negotiateInput('text/plain')),
      415,
    );
    assert.equal(negotiateInput('application/vnd.kubernetes.protobuf'), 'protobuf');
    assert.equal(negotiateInput('application/vnd.orch.protobuf'), 'protobuf');
    for (const t of ['application/*', '*/*', 'application/cbor', 'application/json;as=Table']) {
      assert.equal(
        code(() => negotiateInput(t)),
        415,
        t,
      );
    }
    assert.equal(
      message(() => negotiateInput('text/plain')),
      'the body of the request was in an unknown format - accepted media types include: application/json, ' +
        'application/yaml, application/vnd.kubernetes.protobuf',
    );
  });
});

describe('bodies', () => {
  it('400 on malformed JSON and YAML', () => {
    assert.equal(
      code(() => decodeBody('{"a":', 'json')),
      400,
    );
    assert.equal(
      code(() => decodeBody('a: [b', 'yaml')),
      400,
    );
  });
  it('reads YAML as 1.1', () => {
    assert.deepEqual(decodeBody('a: yes\nb: "1"\n', 'yaml'), { a: true, b: '1' });
  });
  it('writes YAML that YAML 1.1 readers (kube clients) read back as the same strings', () => {
    const value = { a: 'yes', b: '2026-01-01T00:00:00Z', c: 'on', d: '0x1F', e: '1_000', f: 'y' };
    const text = encodeBody(value, 'yaml', false);
    assert.deepEqual(decodeBody(text, 'yaml'), value);
    assert.match(text, /^b: "2026-01-01T00:00:00Z"$/m);
  });
  it('writes YAML with sorted keys', () => {
    assert.equal(encodeBody({ b: 1, a: { d: 1, c: 2 } }, 'yaml', false), 'a:\n  c: 2\n  d: 1\nb: 1\n');
  });
});

describe('CBOR (feature gate CBORServingAndStorage)', () => {
  const all = () => true;
  const cbor = { protobuf: true, cbor: true };
  it('is served only while the gate is on, after JSON for wildcards', () => {
    assert.deepEqual(negotiateOutput('application/cbor', all, cbor), { format: 'json', cbor: true });
    assert.equal(
      code(() => negotiateOutput('application/cbor', all, { protobuf: true })),
      406,
    );
    assert.deepEqual(negotiateOutput('*/*', all, cbor), { format: 'json' });
    assert.deepEqual(negotiateOutput('application/cbor, application/json', all, { protobuf: true }), {
      format: 'json',
    });
  });
  it('lists application/cbor in a 406 and a 415 only while served', () => {
    assert.match(
      message(() => negotiateOutput('text/html', all, cbor)),
      /application\/cbor/,
    );
    assert.doesNotMatch(
      message(() => negotiateOutput('text/html', all, { protobuf: true })),
      /cbor/,
    );
    assert.match(
      message(() => negotiateInput('text/plain', true)),
      /application\/cbor/,
    );
    assert.equal(negotiateInput('application/cbor', true), 'cbor');
    assert.equal(
      code(() => negotiateInput('application/cbor', false)),
      415,
    );
  });
  it('answers a watch as a CBOR sequence, asked for by either name; never a Table', () => {
    const watch = { ...cbor, stream: true };
    assert.deepEqual(negotiateOutput('application/cbor-seq', all, watch), { format: 'json', cbor: true });
    assert.deepEqual(negotiateOutput('application/cbor', all, watch), { format: 'json', cbor: true });
    assert.equal(
      code(() => negotiateOutput('application/cbor-seq', all, cbor)),
      406,
    );
    assert.match(
      message(() => negotiateOutput('text/html', all, watch)),
      /application\/cbor-seq/,
    );
    assert.equal(
      code(() => negotiateOutput('application/cbor;as=Table;v=v1;g=meta.k8s.io', all, cbor)),
      406,
    );
    assert.deepEqual(
      negotiateOutput('application/cbor;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', all, cbor),
      {
        format: 'json',
        conversion: { as: 'PartialObjectMetadata', version: 'v1' },
        cbor: true,
      },
    );
  });
});

describe('strings the database can hold (checkText, decodeBody)', () => {
  const fails = (fn: () => unknown): ApiError => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ApiError, String(e));
      return e;
    }
    assert.fail('no error');
  };

  it('refuses a NUL in a JSON string or key, naming where (400)', () => {
    const e = fails(() => decodeBody('{"data":{"x":["ok","a\\u0000"]}}', 'json'));
    assert.equal(e.code, 400);
    assert.equal(e.message, 'data.x[1]: Invalid value: may not contain the NUL character (\\u0000)');
    assert.match(fails(() => decodeBody('{"a\\u0000":1}', 'json')).message, /^a\u0000: Invalid value/);
    assert.match(fails(() => decodeBody('"\\u0000"', 'json')).message, /^<root>: /);
  });

  it('leaves an escaped backslash before u0000 alone', () => {
    assert.deepEqual(decodeBody('{"a":"\\\\u0000"}', 'json'), { a: '\\u0000' });
  });

  it('replaces lone surrogates with U+FFFD, in values and keys; pairs stay', () => {
    assert.deepEqual(decodeBody('{"a":"x\\ud800","\\udc00":["\\ud83d\\ude00"]}', 'json'), {
      a: 'x\ufffd',
      '\ufffd': ['\u{1f600}'],
    });
  });

  it('keeps a __proto__ key as data', () => {
    const v = decodeBody('{"__proto__":{"x":"\\ud800"}}', 'json') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { x: '\ufffd' });
  });

  it('checks YAML and binary forms the same way', () => {
    assert.match(fails(() => decodeBody('a: "\\0"\n', 'yaml')).message, /^a: .*NUL/);
    assert.match(fails(() => checkText({ a: { b: 'x\0' } }, 'cbor')).message, /^a\.b: .*NUL/);
    assert.deepEqual(decodeBody('a: "\\ud800"\n', 'yaml'), { a: '\ufffd' });
  });

  it('refuses values nested past kube’s depth', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10001; i++) deep = [deep];
    assert.equal(fails(() => checkText(deep)).message, 'json: exceeded max depth');
  });
});

describe('YAML as Go’s yaml.v2 reads it', () => {
  it('reads !!binary as strict base64 into the string of its bytes', () => {
    assert.deepEqual(decodeBody('a: !!binary eHl6\nb: !!binary |\n  eHl6\n  eHl6\n', 'yaml'), {
      a: 'xyz',
      b: 'xyzxyz',
    });
    for (const bad of ['a: !!binary xyz', 'a: !!binary eH=6', 'a: !!binary "e*l6"', '!!binary xyz']) {
      const e = (() => {
        try {
          decodeBody(bad, 'yaml');
        } catch (err) {
          return err as ApiError;
        }
        return undefined;
      })();
      assert.equal(e?.code, 400, bad);
      assert.match(e.message, /^yaml: line 1: !!binary value contains invalid base64 data$/, bad);
    }
  });

  it('words the reader’s errors as yaml.v2 does (`yaml: line N: ...`)', () => {
    assert.match(
      message(() => decodeBody('a: b\n c: [d\n', 'yaml')),
      /^yaml: line \d+: /,
    );
  });

  it('refuses documents nested deeper than it can read, before reading them', () => {
    for (const text of [
      `a: ${'['.repeat(yamlMaxDepth + 1)}`,
      `${'- '.repeat(yamlMaxDepth + 1)}x`,
      `${'{a: '.repeat(yamlMaxDepth + 1)}`,
    ]) {
      assert.throws(
        () => checkYamlDepth(text),
        (e: ApiError) => e.code === 400 && e.message === 'yaml: exceeded max depth',
      );
    }
    checkYamlDepth(`a: ${'['.repeat(300)}${']'.repeat(300)}\n${'['.repeat(300)}${']'.repeat(300)}`);
    assert.equal(
      message(() => decodeBody(`a: ${'['.repeat(20000)}`, 'yaml')),
      'yaml: exceeded max depth',
    );
  });
});

describe('YAML answers', () => {
  it('write an object that appears twice in full, not as an anchor and alias (discovery shares them)', () => {
    const version = { groupVersion: 'coordination.k8s.io/v1', version: 'v1' };
    const text = encodeBody({ versions: [version], preferredVersion: version }, 'yaml', false);
    assert.doesNotMatch(text, /[&*]a1/);
    assert.equal((text.match(/groupVersion: coordination.k8s.io\/v1/g) ?? []).length, 2);
  });
});
