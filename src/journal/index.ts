export * from './check.js';
export * from './canonical-json.js';
export * from './entry.js';
export * from './verify.js';
