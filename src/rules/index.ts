export * from './dice.js';
export * from './errors.js';
export * from './paytable.js';
export * from './settle.js';
export * from './shape.js';
export * from './spots.js';
