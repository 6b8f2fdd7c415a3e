/**
 * The head of a configuration file kube-apiserver reads (AuthenticationConfiguration, AuthorizationConfiguration):
 * YAML or JSON, a field given twice refused (kube's strict decoder), then apiVersion and kind checked against
 * the versions registered, with kube's messages. The caller decodes the rest.
 */
import { parse } from 'yaml';
import { isPlainObject } from './object.js';

export function configFileObject(
  text: string,
  group: string,
  kind: string,
  versions: readonly string[],
): { raw: Record<string, unknown>; version: string } {
  if (text.trim() === '') throw new Error('empty config data');
  const raw: unknown = parse(text, { uniqueKeys: true });
  if (!isPlainObject(raw)) throw new Error(`couldn't get version/kind: the file is not an object`);
  if (raw.kind === undefined || raw.kind === '') throw new Error(`Object 'Kind' is missing`);
  if (raw.apiVersion === undefined || raw.apiVersion === '')
    throw new Error(`Object 'apiVersion' is missing`);
  const apiVersion = String(raw.apiVersion);
  const version = apiVersion.startsWith(`${group}/`) ? apiVersion.slice(group.length + 1) : '';
  if (raw.kind !== kind || !versions.includes(version))
    throw new Error(`no kind "${String(raw.kind)}" is registered for version "${apiVersion}"`);
  return { raw, version };
}
