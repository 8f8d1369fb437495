export * from './croupier-entry.js';
export * from './dice-source.js';
export * from './face-sampler.js';
export * from './prng.js';
export * from './random-source.js';
export * from './seal.js';
