/**
 * `--api-definitions`: CRDs kept in files are applied at start (server-side apply by `pgkube`) and served
 * before the server listens; changed files update them on the next start and while it runs; a file that is
 * not CRDs, or a CRD that is invalid, stops the start naming the file (later: is logged, and changes nothing).
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { testDatabase } from './support/database.js';
import { eventually } from './support/eventually.js';
import { runPgkube, serverExit } from './support/server.js';
import { useServer } from './support/use-server.js';

const group = 'files.pgkube.io';
const crd = (plural: string, kind: string, description = 'from a file') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural, singular: plural.replace(/s$/, ''), kind },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
});

async function definitionsDir(description: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-api-definitions-'));
  // two CRDs in one YAML file, one in a JSON file; other files are not read
  await writeFile(
    path.join(dir, 'a.yaml'),
    `${stringify(crd('kettles', 'Kettle', description))}---\n${stringify(crd('mugs', 'Mug'))}`,
  );
  await writeFile(path.join(dir, 'b.json'), JSON.stringify(crd('spoons', 'Spoon')));
  await writeFile(path.join(dir, 'README.md'), '# not a definition');
  return dir;
}

describe('--api-definitions', () => {
  let dir = '';
  const s = useServer(async () => {
    dir = await definitionsDir('first');
    return { args: [`--api-definitions=${dir}`] };
  });
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kettles.${group}`;

  it('serves the kinds of the files as soon as the server listens', async () => {
    for (const plural of ['kettles', 'mugs', 'spoons']) {
      const r = await s.request('GET', `/apis/${group}/v1/namespaces/default/${plural}`);
      assert.equal(r.status, 200, `${plural}: ${r.text}`);
    }
    const kettles = (await s.request('GET', crdPath)).json;
    assert.equal(kettles.metadata.managedFields[0].manager, 'pgkube');
    assert.equal(kettles.metadata.managedFields[0].operation, 'Apply');
  });

  it('a changed file updates the CRD at the next start', async () => {
    dir = await definitionsDir('second');
    await s.restart({ dataDir: s.dataDir, args: [`--api-definitions=${dir}`] });
    const kettles = (await s.request('GET', crdPath)).json;
    assert.equal(kettles.spec.versions[0].schema.openAPIV3Schema.description, 'second');
    assert.equal(kettles.metadata.generation, 2);
  });

  it('while the server runs, a changed file is applied again; a broken one is logged and changes nothing', async () => {
    const kettleDescription = async () =>
      (await s.request('GET', crdPath)).json.spec.versions[0].schema.openAPIV3Schema.description;
    await writeFile(
      path.join(dir, 'a.yaml'),
      `${stringify(crd('kettles', 'Kettle', 'third'))}---\n${stringify(crd('mugs', 'Mug'))}---\n${stringify(crd('forks', 'Fork'))}`,
    );
    await eventually(async () => (await kettleDescription()) === 'third', 'the changed CRD applied', 10_000);
    await eventually(
      async () => (await s.request('GET', `/apis/${group}/v1/namespaces/default/forks`)).status === 200,
      'the new CRD served',
      10_000,
    );
    await writeFile(path.join(dir, 'b.json'), '{"apiVersion": ');
    await eventually(
      () => /b\.json: .*the definitions applied before stay/.test(s.output()),
      'the broken file logged',
      10_000,
    );
    assert.equal(await kettleDescription(), 'third');
    assert.equal((await s.request('GET', `/apis/${group}/v1/namespaces/default/spoons`)).status, 200);
  });
});

describe('--api-definitions refused at start', () => {
  it('a document that is not a CRD, naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-api-definitions-'));
    const file = path.join(dir, 'cm.yaml');
    await writeFile(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const { code, output } = await serverExit([`--api-definitions=${file}`]);
    assert.notEqual(code, 0);
    assert.match(
      output,
      new RegExp(
        `--api-definitions: ${file}: document 1 is not a apiextensions.k8s.io/v1 CustomResourceDefinition`,
      ),
    );
  });

  it('an invalid CRD, naming the file and the field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-api-definitions-'));
    const bad = crd('pots', 'Pot');
    bad.metadata.name = 'wrong.files.pgkube.io';
    await writeFile(path.join(dir, 'bad.yaml'), stringify(bad));
    // the CRD is refused once storage is up: this start needs a database
    const db = await testDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pgkube-test-'));
    const { code, stderr } = await runPgkube([
      'serve',
      `--data-dir=${dataDir}`,
      '--secure-port=0',
      `--database-url=${db.url}`,
      `--api-definitions=${dir}`,
    ]).finally(() => db.drop());
    assert.notEqual(code, 0);
    assert.match(
      stderr,
      /--api-definitions: .*bad\.yaml: customresourcedefinition wrong\.files\.pgkube\.io: .*metadata\.name: Invalid value: "wrong\.files\.pgkube\.io": must be spec\.names\.plural\+"\."\+spec\.group/,
    );
  });
});
