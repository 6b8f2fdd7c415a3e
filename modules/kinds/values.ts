/** Reading parts of an object that passed no schema yet: a wrong type reads as empty, and validation says why. */
import { isPlainObject } from '../api/index.js';

export type Obj = Record<string, unknown>;

export const objAt = (v: unknown): Obj => (isPlainObject(v) ? v : {});
export const listAt = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strAt = (v: unknown): string => (typeof v === 'string' ? v : '');
export const numAt = (v: unknown): number => (typeof v === 'number' ? v : 0);
