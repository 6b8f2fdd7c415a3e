export * from './api-metrics.js';
export * from './request-labels.js';
export * from './stability.js';
