/** A moment as the desk shows it: unambiguous for staff anywhere ("2026-05-14 21:30 UTC"). */
export function deskTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
