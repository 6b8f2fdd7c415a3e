export * from './media-type.js';
export * from './formats.js';
export * from './table.js';
export * from './compression.js';
