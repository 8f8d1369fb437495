/**
 * Who may play (Lei 10/2012, arts. 2 and 6) and the cage's anti-money-laundering
 * checks (Instrução 1/2016): identities, ages, exclusion orders and their bulk
 * files, the eligibility decision, large cash and suspicion rules. Pure: no
 * I/O and no clock; dates and instants are passed in.
 */
export * from './age.js';
export * from './csv-parse.js';
export * from './eligibility.js';
export * from './exclusion-files.js';
export * from './exclusions.js';
export * from './identity.js';
export { FIELD_ISSUE_CODES, type Issue } from './issue.js';
export * from './large-cash.js';
export * from './suspicion.js';
