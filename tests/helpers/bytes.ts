import { expect } from "vitest";

/**
 * Asserts two byte strings are the same. `toEqual` compares a Buffer element by element through
 * its generic deep equality, which takes tens of seconds for a few megabytes; this names the
 * first byte that differs instead.
 */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(b)) return;
  let at = 0;
  while (at < Math.min(a.length, b.length) && a[at] === b[at]) at++;
  expect.fail(`the bytes differ: ${a.length} bytes where ${b.length} were expected, first at byte ${at}`);
}
