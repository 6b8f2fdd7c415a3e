/**
 * How the node controllers report what they did as Events (NodeNotReady, ...). The event recorder is built
 * elsewhere (events.k8s.io and its recorder); until it is wired in, the default records nothing.
 */
import type { KubeObject } from '../api/index.js';

export type RecordEvent = (
  regarding: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  /** what was done or failed (events.k8s.io's action); the reason when not given */
  action?: string,
) => void;

export const noEvents: RecordEvent = () => undefined;
