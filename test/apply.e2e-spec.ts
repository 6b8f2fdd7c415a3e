/** Server-side apply and managedFields through the real kubectl and raw HTTP. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { kubectl as run } from './support/kubectl.js';
import { useServer } from './support/use-server.js';

const withoutTime = (entries: any[]) => entries.map(({ time: _t, ...rest }) => rest);

describe('server-side apply and managedFields', () => {
  const s = useServer();
  const base = '/api/v1/namespaces/default/configmaps';
  const applyBody = (name: string, data: Record<string, string>) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
      .map(([k, v]) => `  ${k}: "${v}"`)
      .join('\n')}\n`;
  const applyAs = (name: string, manager: string, data: Record<string, string>, extra = '') =>
    s.request('PATCH', `${base}/${name}?fieldManager=${manager}${extra}`, {
      raw: applyBody(name, data),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });

  it('create and update record Update entries for their manager', async () => {
    const created = await s.request('POST', `${base}?fieldManager=creator`, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'mf', labels: { a: 'b' } },
        data: { k: 'v' },
      },
    });
    assert.deepEqual(withoutTime(created.json.metadata.managedFields), [
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
      },
    ]);
    const updated = await s.request('PUT', `${base}/mf`, {
      body: { ...created.json, data: { k: 'v', k2: 'w' } },
      headers: { 'user-agent': 'editor-tool/1.0 (linux)' },
    });
    assert.deepEqual(
      withoutTime(updated.json.metadata.managedFields).map((e) => [e.manager, e.fieldsV1]),
      [
        [
          'creator',
          { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
        ],
        ['editor-tool', { 'f:data': { 'f:k2': {} } }],
      ],
    );
  });

  it('apply creates; a second manager conflicts, shares equal values, forces; dropped fields go', async () => {
    const first = await applyAs('ssa', 'alice', { a: '1', b: '2' });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(withoutTime(first.json.metadata.managedFields), [
      {
        manager: 'alice',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } },
      },
    ]);
    const conflict = await applyAs('ssa', 'bob', { a: 'other' });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.reason, 'Conflict');
    assert.match(conflict.json.message, /^Apply failed with 1 conflict: conflict with "alice": \.data\.a/);
    assert.deepEqual(conflict.json.details.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' },
    ]);
    const shared = await applyAs('ssa', 'bob', { a: '1' });
    assert.equal(shared.status, 200);
    // as kube: an apply that changes nothing stamps no time, and entries without one sort first
    assert.deepEqual(
      shared.json.metadata.managedFields.map((e: any) => [e.manager, e.time !== undefined, e.fieldsV1]),
      [
        ['bob', false, { 'f:data': { 'f:a': {} } }],
        ['alice', true, { 'f:data': { 'f:a': {}, 'f:b': {} } }],
      ],
    );
    const forced = await applyAs('ssa', 'carol', { b: 'mine' }, '&force=true');
    assert.equal(forced.status, 200);
    assert.equal(forced.json.data.b, 'mine');
    assert.deepEqual(
      withoutTime(forced.json.metadata.managedFields).map((e) => [e.manager, e.fieldsV1]),
      [
        ['bob', { 'f:data': { 'f:a': {} } }],
        ['alice', { 'f:data': { 'f:a': {} } }],
        ['carol', { 'f:data': { 'f:b': {} } }],
      ],
    );
    // carol stops applying b: nobody else owns it, so it goes
    const dropped = await s.request('PATCH', `${base}/ssa?fieldManager=carol`, {
      raw: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\n',
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(dropped.status, 200);
    assert.deepEqual(dropped.json.data, { a: '1' });
  });

  it('apply needs a fieldManager (422); managedFields in the body is 400; dryRun persists nothing', async () => {
    const noManager = await s.request('PATCH', `${base}/x`, {
      raw: applyBody('x', { a: '1' }),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    // kube's ValidatePatchOptions: PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value
    assert.equal(noManager.status, 422);
    assert.equal(noManager.json.details.causes[0].field, 'fieldManager');
    const withManaged = await s.request('PATCH', `${base}/x?fieldManager=m`, {
      raw: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  managedFields: [{manager: m}]\n',
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(withManaged.status, 400);
    const dry = await applyAs('drycm', 'm', { a: '1' }, '&dryRun=All');
    assert.equal(dry.status, 201);
    assert.equal((await s.request('GET', `${base}/drycm`)).status, 404);
  });

  it('kubectl apply --server-side by two managers, --force-conflicts, diff', async () => {
    const file = path.join(s.dataDir, 'ssa.yaml');
    await writeFile(file, applyBody('kssa', { color: 'blue' }));
    const first = await run(['apply', '--server-side', '-f', file], { kubeconfig: s.kubeconfig });
    assert.equal(first.code, 0, first.stderr);
    await writeFile(file, applyBody('kssa', { color: 'red' }));
    const conflict = await run(['apply', '--server-side', '--field-manager=other', '-f', file], {
      kubeconfig: s.kubeconfig,
    });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.color/);
    const diff = await run(['diff', '-f', file], { kubeconfig: s.kubeconfig });
    assert.equal(diff.code, 1, diff.stderr);
    assert.match(diff.stdout, /-\s+color: blue\n\+\s+color: red/);
    const unchanged = await run(['get', 'cm', 'kssa', '-o', 'jsonpath={.data.color}'], {
      kubeconfig: s.kubeconfig,
    });
    assert.equal(unchanged.stdout, 'blue', 'diff persists nothing');
    const forced = await run(
      ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', file],
      {
        kubeconfig: s.kubeconfig,
      },
    );
    assert.equal(forced.code, 0, forced.stderr);
    const cm = JSON.parse(
      (await run(['get', 'cm', 'kssa', '-o', 'json', '--show-managed-fields'], { kubeconfig: s.kubeconfig }))
        .stdout,
    );
    assert.equal(cm.data.color, 'red');
    assert.deepEqual(
      cm.metadata.managedFields.map((e: any) => e.manager),
      ['other'],
    );
  });

  it('managedFields reset rules on PUT: [{}] clears, [] changes nothing', async () => {
    const created = (await applyAs('reset', 'alice', { a: '1' })).json;
    const kept = await s.request('PUT', `${base}/reset?fieldManager=bob`, {
      body: { ...created, metadata: { ...created.metadata, managedFields: [] } },
    });
    assert.deepEqual(
      kept.json.metadata.managedFields.map((e: any) => e.manager),
      ['alice'],
    );
    const cleared = await s.request('PUT', `${base}/reset?fieldManager=bob`, {
      body: { ...kept.json, metadata: { ...kept.json.metadata, managedFields: [{}] } },
    });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.json.metadata.managedFields, undefined);
  });

  it('a status subresource write keeps its own entry', async () => {
    await s.request('POST', '/api/v1/namespaces?fieldManager=maker', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'st', labels: { team: 'a' } } },
    });
    const ns = (await s.request('GET', '/api/v1/namespaces/st')).json;
    const r = await s.request('PUT', '/api/v1/namespaces/st/status?fieldManager=statusbot', {
      body: { ...ns, status: { ...ns.status, conditions: [{ type: 'Ready', status: 'True' }] } },
    });
    assert.equal(r.status, 200, r.text);
    const entries = r.json.metadata.managedFields.map((e: any) => [e.manager, e.subresource ?? '']);
    assert.deepEqual(entries, [
      ['maker', ''],
      ['statusbot', 'status'],
    ]);
  });
});
