import * as css from "./desk.css";

/** A QR code the server drew (server/desk/qr.ts), as inline SVG: dark modules on white. */
export function QrCode({ size, path, label }: { size: number; path: string; label: string }) {
  return (
    <svg className={css.qr} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
