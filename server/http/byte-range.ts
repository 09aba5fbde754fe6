/** One byte range of a file, both ends included (RFC 9110 section 14). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a `Range` header asks of a file of `size` bytes: null to send the whole file (no
 * header, a unit other than bytes, or several ranges, which a server may answer in full), or
 * "unsatisfiable" when the range starts past the end of the file.
 */
export function parseByteRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === "" && to === "") return null;
  if (from === "") {
    // The last N bytes.
    const length = Number(to);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return "unsatisfiable";
  if (end < start) return null;
  return { start, end };
}
