/** PATCH with the real kubectl (client-side apply, patch, label, annotate, edit) and malformed patches. */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { kubectl as run } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

describe('patches', () => {
  const s = useServer();
  const k = async (args: string[], env?: Record<string, string>) => {
    const r = await run(args, { kubeconfig: s.kubeconfig, env });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };

  it('kubectl apply (client-side) twice with edits removes the dropped field', async () => {
    const file = path.join(s.dataDir, 'apply.yaml');
    await writeFile(
      file,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "1"\n  b: "2"\n',
    );
    assert.match(await k(['apply', '-f', file]), /configmap\/applied created/);
    await writeFile(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "3"\n');
    assert.match(await k(['apply', '-f', file]), /configmap\/applied configured/);
    const cm = JSON.parse(await k(['get', 'cm', 'applied', '-o', 'json']));
    assert.deepEqual(cm.data, { a: '3' });
    assert.ok(cm.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
  });

  it('patch --type json, merge and strategic; label; annotate', async () => {
    await k(['create', 'configmap', 'pt', '--from-literal=a=b']);
    await k(['patch', 'cm', 'pt', '--type', 'json', '-p', '[{"op":"add","path":"/data/j","value":"1"}]']);
    await k(['patch', 'cm', 'pt', '--type', 'merge', '-p', '{"data":{"m":"2","a":null}}']);
    await k(['patch', 'cm', 'pt', '--type', 'strategic', '-p', '{"data":{"s":"3"}}']);
    await k(['label', 'cm', 'pt', 'tier=web']);
    await k(['annotate', 'cm', 'pt', 'note=hello']);
    const cm = JSON.parse(await k(['get', 'cm', 'pt', '-o', 'json']));
    assert.deepEqual(cm.data, { j: '1', m: '2', s: '3' });
    assert.equal(cm.metadata.labels.tier, 'web');
    assert.equal(cm.metadata.annotations.note, 'hello');
  });

  it('strategic merge of a keyed list in a built-in kind (ServiceAccount secrets by name)', async () => {
    await k(['create', 'serviceaccount', 'robot']);
    await k(['patch', 'sa', 'robot', '-p', '{"secrets":[{"name":"one"}]}']);
    await k(['patch', 'sa', 'robot', '-p', '{"secrets":[{"name":"two"}]}']);
    const sa = JSON.parse(await k(['get', 'sa', 'robot', '-o', 'json']));
    assert.deepEqual(sa.secrets.map((x: any) => x.name).sort(), ['one', 'two']);
  });

  it('kubectl edit with an editor script', async () => {
    await k(['create', 'configmap', 'edited', '--from-literal=color=blue']);
    const editor = path.join(s.dataDir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i "s/color: blue/color: green/" "$1"\n');
    await chmod(editor, 0o755);
    assert.match(await k(['edit', 'cm', 'edited'], { EDITOR: editor, KUBE_EDITOR: editor }), /edited/);
    assert.equal(await k(['get', 'cm', 'edited', '-o', 'jsonpath={.data.color}']), 'green');
  });

  it('malformed or unsupported patches are 4xx Status errors', async () => {
    await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { a: '1' } },
    });
    const p = '/api/v1/namespaces/default/configmaps/bad';
    const cases: [string, string, number][] = [
      ['application/json-patch+json', '[{"op":"test","path":"/data/a","value":"2"}]', 422],
      ['application/json-patch+json', '[{"op":"remove","path":"/nope/x"}]', 422],
      ['application/json-patch+json', '{"op":"add"}', 400],
      ['application/merge-patch+json', '{"data":', 400],
      ['application/merge-patch+json', '{"data":{"a":1}}', 400],
      ['text/plain', '{}', 415],
    ];
    for (const [type, body, code] of cases) {
      const r = await s.request('PATCH', p, { raw: body, headers: { 'content-type': type } });
      assert.equal(r.status, code, `${type} ${body}: ${r.text}`);
      assert.equal(r.json.kind, 'Status');
    }
    const missing = await s.request('PATCH', '/api/v1/namespaces/default/configmaps/none', {
      raw: '{}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(missing.status, 404);
  });

  it('field validation: --validate=strict fails on unknown fields, --validate=warn prints warnings', async () => {
    const file = path.join(s.dataDir, 'unknown.yaml');
    await writeFile(
      file,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fv\n  bogus: 1\ndata:\n  a: "1"\nextra: true\n',
    );
    const strict = await run(['create', '-f', file, '--validate=strict'], { kubeconfig: s.kubeconfig });
    assert.notEqual(strict.code, 0);
    assert.match(
      strict.stderr,
      /strict decoding error: unknown field "extra", unknown field "metadata.bogus"/,
    );
    const warn = await run(['create', '-f', file, '--validate=warn'], { kubeconfig: s.kubeconfig });
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stderr, /Warning: unknown field "extra"/);
    assert.match(warn.stderr, /Warning: unknown field "metadata.bogus"/);
    const stored = JSON.parse(await k(['get', 'cm', 'fv', '-o', 'json']));
    assert.equal(stored.extra, undefined, 'unknown fields are dropped');
  });

  it('duplicate JSON fields: Strict is 400, Warn warns, Ignore is silent', async () => {
    const raw =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup"},"data":{"a":"1"}}';
    const headers = { 'content-type': 'application/json' };
    const base = '/api/v1/namespaces/default/configmaps';
    const strict = await s.request('POST', `${base}?fieldValidation=Strict`, { raw, headers });
    assert.equal(strict.status, 400);
    assert.match(strict.json.message, /duplicate field "metadata.name"/);
    const warn = await s.request('POST', `${base}?fieldValidation=Warn&dryRun=All`, { raw, headers });
    assert.equal(warn.status, 201);
    assert.match(String(warn.headers.warning), /duplicate field \\"metadata.name\\"/);
    const ignore = await s.request('POST', `${base}?fieldValidation=Ignore&dryRun=All`, { raw, headers });
    assert.equal(ignore.status, 201);
    assert.equal(ignore.headers.warning, undefined);
    const bad = await s.request('POST', `${base}?fieldValidation=Loud`, { raw, headers });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json.message,
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});
