/** The 409 an apply gets when it would change fields other managers own, worded as kube words it. */
import { ApiError, type StatusCause } from '../../api/index.js';
import { describeManager } from '../managed-fields/entries.js';
import type { Conflict } from '../managed-fields/owners.js';
import { pathText } from '../managed-fields/path-element.js';
import { compareStrings } from '../managed-fields/json-value.js';

export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0];
    return `Apply failed with 1 conflict: conflict with ${describeManager(c.manager)}: ${pathText(c.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager) ?? [];
    paths.push(pathText(c.path));
    byManager.set(c.manager, paths);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${describeManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.manager)}`,
    field: pathText(c.path),
  }));
  return new ApiError(409, 'Conflict', conflictMessage(conflicts), { causes });
}
