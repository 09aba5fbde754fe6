import { signedCookie } from "~/app/lib/http/cookies.server";

// What the desk shows once after a Post/Redirect/Get: new recovery codes, or a new enrolment
// link. Only their hashes are stored, so the page after the redirect is the one chance to see
// them; this cookie carries them there for at most five minutes, and that page clears it. A
// notice ("Saved.") goes the same way, so that reloading the page does not say it again.

export type DeskFlash =
  | { kind: "recovery-codes"; codes: string[] }
  | { kind: "enrolment-link"; email: string; url: string }
  | { kind: "notice"; message: string };

interface Stored {
  userId: string;
  flash: DeskFlash;
}

const flashCookie = signedCookie("mr_desk_flash", 300);
const PATH = "/desk";

export function setDeskFlash(userId: string, flash: DeskFlash): Promise<string> {
  const stored: Stored = { userId, flash };
  return flashCookie().serialize(stored, { path: PATH });
}

/** The flash for this staff member, if one came with the request, and the Set-Cookie that clears it. */
export async function takeDeskFlash(request: Request, userId: string): Promise<{ flash: DeskFlash | null; setCookie?: string }> {
  const stored: unknown = await flashCookie().parse(request.headers.get("Cookie"));
  if (!stored || typeof stored !== "object") return { flash: null };
  const setCookie = await flashCookie().serialize("", { path: PATH, maxAge: 0 });
  const { userId: owner, flash } = stored as Partial<Stored>;
  return { flash: owner === userId && flash ? flash : null, setCookie };
}
