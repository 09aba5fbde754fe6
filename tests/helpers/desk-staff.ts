import { expect } from "vitest";
import { register } from "~/server/accounts/registration";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import type { Role } from "~/shared/staff-roles";
import { Reader } from "./reader";

// Staff for the desk's tests through the built server (ADR 072): readers who sign in through the
// sign-in page, are made staff as the command line does, and enrol through the enrolment page.

export const STAFF_PASSWORD = "Lantern5!quay";

let counter = 0;

export function deskPeople(baseUrl: string, db: Database) {
  const uniqueEmail = (name: string) => `${name}.${++counter}.${process.pid}@example.org`;

  /** A reader account, signed in through the sign-in page. */
  async function signedInReader(name: string): Promise<{ reader: Reader; email: string }> {
    const email = uniqueEmail(name.toLowerCase());
    const made = await register(db, { firstName: name, lastName: "Desk", email, password: STAFF_PASSWORD, optIn: false });
    if (!made.ok) throw new Error(made.reason);
    const reader = new Reader(baseUrl);
    const res = await reader.request("/sign-in", { form: { username: email, password: STAFF_PASSWORD, redirectTo: "/" } });
    expect(res.status).toBe(303);
    return { reader, email };
  }

  /** Follows an enrolment link as its reader: reads the secret off the page and sends a code from it. */
  async function enrol(reader: Reader, link: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const url = new URL(link);
    const page = await reader.page(url.pathname + url.search);
    expect(page("svg[role=img] path").attr("d")).toMatch(/^M\d+ \d+h1v1h-1z/);
    const secret = page("main strong")
      .filter((_, el) => /^[A-Z2-7 ]{20,}$/.test(page(el).text()))
      .text()
      .replace(/ /g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const res = await reader.request(url.pathname + url.search, { form: { code: totpCode(secret, new Date()) } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/desk/security");
    const codes = await reader.page("/desk/security");
    const recoveryCodes = codes("main ul li")
      .map((_, el) => codes(el).text())
      .get()
      .filter((text) => /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/.test(text));
    expect(recoveryCodes).toHaveLength(10);
    return { secret, recoveryCodes };
  }

  /** A staff member with these roles, signed in, enrolled and inside the desk; `name` is their first name. */
  async function staffMember(roles: Role[], name: string = roles.join("-")) {
    const { reader, email } = await signedInReader(name);
    const added = await addStaff(db, COMMAND_LINE, email, roles, new Date());
    if (!added.ok) throw new Error(added.reason);
    const enrolled = await enrol(reader, `${baseUrl}/desk/enrol?token=${encodeURIComponent(added.token)}`);
    return { reader, email, name: `${name} Desk`, userId: added.user.id, ...enrolled };
  }

  return { uniqueEmail, signedInReader, enrol, staffMember };
}

/** A file for a picture form: its bytes, and the name and type the browser says it has. */
export type PictureFile = { bytes: Buffer; name: string; type: string } | null;

/** A browser's multipart post of a desk picture form (same-site unless headers say otherwise); it keeps the cookies set. */
export async function uploadPicture(reader: Reader, path: string, file: PictureFile, alt = "", headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", "upload");
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  form.set("alt", alt);
  const res = await fetch(`${reader.baseUrl}${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: reader.cookieHeader(), Origin: reader.baseUrl, ...headers },
    redirect: "manual",
  });
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    reader.setCookie(pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1));
  }
  return res;
}
