/** A moment as the desk shows it: unambiguous for staff anywhere ("2026-05-14 21:30 UTC"). */
export function deskTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A file's size as the desk shows it: "812 KB", "48.3 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
