export {
  buildEvent,
  microTime,
  nowNanos,
  referenceTo,
  withRepeat,
  EVENTS_API_VERSION,
  NOTE_LIMIT_BYTES,
  type EventReport,
  type EventReporter,
  type EventType,
  type ObjectReference,
} from './event-builder.js';
export { EventSeries, SERIES_WINDOW_MS, type Observation } from './event-series.js';
export { EventRecorder, type RecorderOptions } from './recorder.js';
