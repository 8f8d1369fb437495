export * from './check.js';
export * from './canonical-json.js';
export * from './entries.js';
export * from './entry.js';
export * from './verify.js';
