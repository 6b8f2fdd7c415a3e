/**
 * Printer-column helpers matching kube's built-in table printers: the Name and Age columns every kind has,
 * and kube's duration formatting ("5m10s", "3d4h", "<unknown>").
 */
import type { PrinterColumn } from '../registry/index.js';
import type { KubeObject } from '../api/index.js';

/** kube's duration.HumanDuration: about two significant units. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // up to two seconds in the future counts as "now" (clock skew)
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** kube's translateTimestampSince: "<unknown>" for an unset time. */
export function timestampSince(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string' || !timestamp) return '<unknown>';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at) || at <= Date.parse('0001-01-01T00:00:00Z')) return '<unknown>';
  return humanDuration(nowMs - at);
}

export const nameColumn: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name of the object, unique within its namespace.',
  priority: 0,
  jsonPath: '.metadata.name',
};

export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
  cell: (obj: KubeObject, nowMs: number) => timestampSince(obj.metadata?.creationTimestamp, nowMs),
};

/** A string field as kube prints it: unset is the empty string. */
export const stringAt = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Number of entries of a map or list field; kube prints such counts as integers. */
export function countOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value && typeof value === 'object' ? Object.keys(value).length : 0;
}
