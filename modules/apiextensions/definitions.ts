/**
 * `--api-definitions PATH`: CRD manifests kept in files (a platform team's groups in Git). Read before the
 * server starts (a file that is not CRDs stops it, naming the file), then applied as server-side apply by the
 * manager `pgkube` (created, or updated to what the files say; other managers' fields stay), and served before
 * the server listens.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isPlainObject, systemContext, type KubeObject } from '../api/index.js';
import { apply } from '../apply/index.js';
import { ignoredFields, type GenericStore, type ResourceDefinition } from '../registry/index.js';
import { decodeObject } from '../schema/index.js';
import { crdGroup, crdVersion } from './crd/index.js';

export const DEFINITIONS_MANAGER = 'pgkube';

export interface ApiDefinition {
  file: string;
  crd: KubeObject;
}

const crdApiVersion = `${crdGroup}/${crdVersion}`;

function documentsOf(file: string, text: string): unknown[] {
  if (file.endsWith('.json')) return [JSON.parse(text)];
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) if (d.errors.length > 0) throw new Error(d.errors[0].message);
  return list.map((d) => d.toJS()).filter((v) => v !== null && v !== undefined);
}

/** The CRDs in `target`: a file, or every .yaml, .yml and .json file of a directory, in name order. */
export async function readApiDefinitions(target: string): Promise<ApiDefinition[]> {
  const flag = '--api-definitions';
  let files: string[];
  try {
    files = (await stat(target)).isDirectory()
      ? (await readdir(target))
          .filter((f) => /\.(ya?ml|json)$/.test(f))
          .sort()
          .map((f) => path.join(target, f))
      : [target];
  } catch (e) {
    throw new Error(`${flag}: ${(e as Error).message}`);
  }
  const out: ApiDefinition[] = [];
  for (const file of files) {
    let docs: unknown[];
    try {
      docs = documentsOf(file, await readFile(file, 'utf8'));
    } catch (e) {
      throw new Error(`${flag}: ${file}: ${(e as Error).message}`);
    }
    docs.forEach((doc, i) => {
      const obj = isPlainObject(doc) ? doc : {};
      if (obj.apiVersion !== crdApiVersion || obj.kind !== 'CustomResourceDefinition') {
        throw new Error(
          `${flag}: ${file}: document ${i + 1} is not a ${crdApiVersion} CustomResourceDefinition (apiVersion ${JSON.stringify(obj.apiVersion)}, kind ${JSON.stringify(obj.kind)})`,
        );
      }
      const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
      if (typeof meta.name !== 'string' || meta.name === '') {
        throw new Error(`${flag}: ${file}: document ${i + 1} has no metadata.name`);
      }
      out.push({ file, crd: obj as KubeObject });
    });
  }
  return out;
}

/** The stored CRD after `pgkube` applied `crd` to it (forcing: the files are the truth for their fields). */
function applied(kind: ResourceDefinition, live: KubeObject | undefined, crd: KubeObject): KubeObject {
  const result = apply(live, structuredClone(crd), DEFINITIONS_MANAGER, kind.schema, {
    force: true,
    apiVersion: crdApiVersion,
    kind: 'CustomResourceDefinition',
    ignoredFields: ignoredFields(kind, undefined),
  });
  const next = decodeObject(result.object, kind.schema, { kind: kind.kind }).object as KubeObject;
  if (result.managedFields.length > 0) next.metadata.managedFields = result.managedFields;
  else delete next.metadata.managedFields;
  if (live) next.metadata.resourceVersion = live.metadata.resourceVersion;
  else delete next.metadata.resourceVersion;
  return next;
}

/** Applies every definition; a refused one stops the start, naming its file. */
export async function applyApiDefinitions(
  generic: GenericStore,
  kind: ResourceDefinition,
  definitions: readonly ApiDefinition[],
): Promise<void> {
  for (const { file, crd } of definitions) {
    const name = crd.metadata.name!;
    try {
      await generic.update(systemContext(), kind, '', name, (live) => applied(kind, live, crd), {
        forceAllowCreate: true,
      });
    } catch (e) {
      throw new Error(
        `--api-definitions: ${file}: customresourcedefinition ${name}: ${(e as Error).message}`,
      );
    }
  }
}
