// Array equality within a tolerance, for comparing float results with references.
import assert from 'node:assert/strict';

export function assertNear(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    if (!(Math.abs(actual[i] - expected[i]) <= tolerance)) {
      const got = Array.from(actual.slice(0, 32), (x) => x.toFixed(5));
      assert.fail(`${what}[${i}] = ${actual[i]}, expected ${expected[i]} (tolerance ${tolerance}); got [${got}]`);
    }
  }
}
