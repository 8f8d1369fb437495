export * from './exposure.js';
export * from './odds.js';
