/**
 * An assertion whose message is built only when it fails: hot loops (one call
 * per transfer or journal entry) must not pay for formatting a string that is
 * almost never shown. Like node:assert it stays on in production.
 */
import assert from 'node:assert/strict';

export function check(condition: boolean, message: () => string): asserts condition {
  if (!condition) assert.fail(message());
}
