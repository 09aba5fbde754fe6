import { describe, expect, it } from "vitest";
import { parseByteRange } from "~/server/http/byte-range";

describe("the byte range a player asks for", () => {
  const size = 1000;

  it("sends the whole file when no single byte range is asked for", () => {
    expect(parseByteRange(null, size)).toBeNull();
    expect(parseByteRange("", size)).toBeNull();
    expect(parseByteRange("items=0-10", size)).toBeNull();
    expect(parseByteRange("bytes=0-10,20-30", size)).toBeNull();
    expect(parseByteRange("bytes=-", size)).toBeNull();
    expect(parseByteRange("bytes=50-10", size)).toBeNull();
  });

  it("reads a start and an end, both included, and stops an open or long range at the last byte", () => {
    expect(parseByteRange("bytes=0-99", size)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange("bytes=900-", size)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=900-5000", size)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=999999999999999-", size)).toBe("unsatisfiable");
  });

  it("reads a suffix as the last bytes of the file", () => {
    expect(parseByteRange("bytes=-100", size)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-5000", size)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange("bytes=-0", size)).toBe("unsatisfiable");
  });

  it("refuses a range that starts past the end", () => {
    expect(parseByteRange("bytes=1000-", size)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=0-0", 0)).toBe("unsatisfiable");
  });
});
