export * from './exposure.js';
export * from './fairness.js';
export * from './odds.js';
export * from './special-functions.js';
