/** Topic page slug, per the spec: lowercase, "&" becomes "and", spaces become hyphens. */
export function topicSlug(name: string): string {
  return name.trim().toLowerCase().replace(/&/g, "and").replace(/\s+/g, "-");
}

/** The headline topic link segment: the name lowercased with spaces as hyphens. */
export function topicHeadlineSegment(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

/** Turns a headline segment (or anything close to it) back into a comparable key. */
export function topicKey(nameOrSegment: string): string {
  return topicSlug(nameOrSegment.replace(/-/g, " ")).replace(/[^a-z0-9]/g, "");
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}
