export * from './media-type.js';
export * from './formats.js';
