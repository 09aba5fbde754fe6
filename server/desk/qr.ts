import { encodeQR } from "@paulmillr/qr";

/** A QR code as one SVG path of unit squares: `size` modules a side, the quiet zone included. */
export interface QrDrawing {
  size: number;
  path: string;
}

/** Modules of light margin around the code, as the QR standard asks. */
const QUIET_ZONE = 4;

/**
 * Draws text (an otpauth:// address) as a QR code, at error correction level M, for the page to
 * put in an <svg> of its own: no image request, no script, nothing for the CSP to allow.
 */
export function qrDrawing(text: string): QrDrawing {
  const modules = encodeQR(text, "raw", { ecc: "medium", border: 0 });
  const parts: string[] = [];
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }),
  );
  return { size: modules.length + 2 * QUIET_ZONE, path: parts.join("") };
}
