import { createCookie } from "@remix-run/node";

export type TextSize = "standard" | "large";

// Not signed: it holds a display preference and nothing is decided on it.
export const textSizeCookie = createCookie("text_size", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function readTextSize(request: Request): Promise<TextSize> {
  const value = await textSizeCookie.parse(request.headers.get("Cookie"));
  return value === "large" ? "large" : "standard";
}
