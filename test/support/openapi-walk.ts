/** Helpers the OpenAPI specs share: walking a document for `$ref`s and private markers. */

export function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) collectRefs(v, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

export function collectKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) collectKeys(v, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      out.add(k);
      collectKeys(v, out);
    }
  }
  return out;
}

type Doc = Record<string, any>;

/** What kubectl's QueryParamVerifierV3 does: the PATCH operation of the GVK must list the query parameter. */
export function patchSupportsParam(
  doc: Doc,
  gvk: { group: string; version: string; kind: string },
  param: string,
) {
  for (const item of Object.values(doc.paths as Record<string, Doc>)) {
    const op = item.patch;
    if (!op) continue;
    const ext = op['x-kubernetes-group-version-kind'];
    if (!ext || ext.group !== gvk.group || ext.version !== gvk.version || ext.kind !== gvk.kind) continue;
    return (op.parameters as Doc[]).some((p) => p.name === param && p.in === 'query');
  }
  return false;
}

/** What kubectl explain does first: find the schema whose x-kubernetes-group-version-kind names the kind. */
export function schemaForKind(
  schemas: Record<string, Doc>,
  gvk: { group: string; version: string; kind: string },
) {
  return Object.entries(schemas).find(([, s]) =>
    (s['x-kubernetes-group-version-kind'] as Doc[] | undefined)?.some(
      (g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind,
    ),
  );
}
