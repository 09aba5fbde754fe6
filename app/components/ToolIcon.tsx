import { toolIcon } from "./controls.css";

// Drawn on a 20-unit square with round-ended 1.6-unit strokes, in the colour of the word beside them.
const SHAPES = {
  save: "M5.5 3h9v14l-4.5-3.5L5.5 17z",
  share: "M10 12.5V3M6.5 6.5 10 3l3.5 3.5M4.5 10v6.5h11V10",
  download: "M10 3v9.5M6.5 9 10 12.5 13.5 9M4.5 16.5h11",
  "text-size": "M2.5 16.5 7 5l4.5 11.5M4.2 12.3h5.6M12.5 16.5l3-7.5 3 7.5M13.6 14h3.8",
} as const;

/** The icon beside a page's tool (Save, Share, Download, Larger text); the word names the tool. */
export function ToolIcon({ name }: { name: keyof typeof SHAPES }) {
  return (
    <svg className={toolIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d={SHAPES[name]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
