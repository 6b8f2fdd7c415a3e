/**
 * kube-aggregator's APIService validation: the name is `<version>.<group>`, the group and version are DNS
 * names, the priorities are in range, and only an APIService with a service may say how to reach it.
 */
import { fieldError, goQuote, isPlainObject, type FieldError } from '../../api/index.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../validation/index.js';
import { conditionStatuses, type APIService } from './apiservice-types.js';

const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** the decoded length of a base64 value, as Go's []byte holds it */
const byteLength = (value: unknown): number =>
  typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;

/**
 * The name (or generateName) must equal `spec.version + "." + spec.group`; a name that is no path segment
 * is already refused by the generic metadata check (nameRule `pathSegment`), so only valid ones are judged.
 */
function validateName(obj: APIService, required: string): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata;
  const check = (value: string | undefined, path: string) => {
    if (!value || isValidPathSegmentName(value).length > 0 || value === required) return;
    errs.push(
      fieldError.invalid(path, value, `must be \`spec.version+"."+spec.group\`: ${goQuote(required)}`),
    );
  };
  check(meta.generateName, 'metadata.generateName');
  check(meta.name, 'metadata.name');
  return errs;
}

export function validateApiService(obj: APIService): FieldError[] {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const group = stringOf(spec.group);
  const version = stringOf(spec.version);
  const errs = validateName(obj, `${version}.${group}`);

  if (!group && version !== 'v1') {
    errs.push(
      fieldError.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'),
    );
  }
  if (group) {
    for (const msg of isDNS1123Subdomain(group)) errs.push(fieldError.invalid('spec.group', group, msg));
  }
  for (const msg of isDNS1035Label(version)) errs.push(fieldError.invalid('spec.version', version, msg));

  const groupPriority = numberOf(spec.groupPriorityMinimum);
  if (groupPriority <= 0 || groupPriority > 20000) {
    errs.push(
      fieldError.invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'),
    );
  }
  const versionPriority = numberOf(spec.versionPriority);
  if (versionPriority <= 0 || versionPriority > 1000) {
    errs.push(
      fieldError.invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'),
    );
  }

  const caBytes = byteLength(spec.caBundle);
  const insecure = spec.insecureSkipTLSVerify === true;
  if (!isPlainObject(spec.service)) {
    if (caBytes !== 0) {
      errs.push(
        fieldError.invalid('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'),
      );
    }
    if (insecure) {
      errs.push(
        fieldError.invalid(
          'spec.insecureSkipTLSVerify',
          true,
          'local APIServices may not have insecureSkipTLSVerify',
        ),
      );
    }
    return errs;
  }

  const service = spec.service;
  if (!stringOf(service.namespace)) errs.push(fieldError.required('spec.service.namespace', ''));
  if (!stringOf(service.name)) errs.push(fieldError.required('spec.service.name', ''));
  const port = numberOf(service.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(
      fieldError.invalid(
        'spec.service.port',
        port,
        'port is not valid: must be between 1 and 65535, inclusive',
      ),
    );
  }
  if (insecure && caBytes > 0) {
    errs.push(
      fieldError.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'),
    );
  }
  return errs;
}

/** A status write: every condition's status is True, False or Unknown. */
export function validateApiServiceStatus(obj: APIService): FieldError[] {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const errs: FieldError[] = [];
  conditions.forEach((condition: unknown, i) => {
    const value = isPlainObject(condition) ? stringOf(condition.status) : '';
    if (!conditionStatuses.includes(value)) {
      errs.push(fieldError.notSupported(`status.conditions[${i}].status`, value, conditionStatuses));
    }
  });
  return errs;
}
