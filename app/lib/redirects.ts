/** Accepts only a same-site path ("/x", not "//host" or "http://"); anything else becomes "/". */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(value) || value.length > 2048) return fallback;
  return value;
}

/** The same-site path with one query value set (e.g. registration=success). */
export function withQueryValue(path: string, name: string, value: string): string {
  const url = new URL(path, "http://site.invalid");
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
