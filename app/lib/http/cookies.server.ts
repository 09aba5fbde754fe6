import { createCookie, type Cookie } from "@remix-run/node";
import { secrets } from "~/server/secrets";
import { config } from "~/app/lib/context/db.server";

/**
 * A signed cookie, HttpOnly, SameSite=Lax, Secure on an https site. Made on first use, since the
 * site URL and the secret are read from the environment then, not at import.
 */
export function signedCookie(name: string, maxAgeSeconds: number | (() => number)): () => Cookie {
  let cookie: Cookie | undefined;
  return () =>
    (cookie ??= createCookie(name, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: config().siteUrl.startsWith("https:"),
      secrets: [secrets().sessionSecret],
      maxAge: typeof maxAgeSeconds === "function" ? maxAgeSeconds() : maxAgeSeconds,
    }));
}
