/** The views schema `k8s` should hold for the kinds stored now: pure, so a spec can read the SQL. */
import { storageKey, type ResourceDefinition } from '../registry/index.js';
import { fieldColumns } from './columns.js';
import { viewNames } from './naming.js';
import { changesViewSql, kindViewSql, type ViewSqlOptions } from './view-sql.js';

export interface ViewSpec {
  name: string;
  select: string;
  /** said in the view's comment, for whoever lists the schema */
  description: string;
}

export interface ViewSpecOptions extends ViewSqlOptions {
  /** --history-retention: the window of `k8s.changes` */
  retentionMs: number;
}

/** `stored`: the registry's stored kinds (one per storage key) */
export function viewSpecs(stored: readonly ResourceDefinition[], options: ViewSpecOptions): ViewSpec[] {
  const specs: ViewSpec[] = [
    {
      name: 'changes',
      select: changesViewSql(options.retentionMs, options),
      description: 'every change within the history retention',
    },
  ];
  for (const [def, name] of viewNames(stored)) {
    const key = storageKey(def);
    specs.push({
      name,
      select: kindViewSql(def, key, fieldColumns(def), options),
      description: `${def.kind} objects (${def.group || 'core'}/${def.storageVersion}, stored as ${key})`,
    });
  }
  return specs;
}
