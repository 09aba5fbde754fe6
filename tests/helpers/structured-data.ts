import type * as cheerio from "cheerio";

// A page's JSON-LD, and what Google's structured-data documentation requires of each type it
// has a feature for (Article, Product and its Offer, WebSite's SearchAction, paywalled content).
// For types Google has no feature for, what schema.org needs to say what the thing is and where
// it lives: a name and an address, and for an episode or issue the whole it belongs to.

type Doc = Record<string, unknown>;

const REQUIRED: Record<string, string[]> = {
  WebSite: ["name", "url", "potentialAction"],
  SearchAction: ["target", "query-input"],
  EntryPoint: ["urlTemplate"],
  NewsArticle: ["headline", "image", "datePublished", "dateModified", "author", "publisher"],
  Person: ["name"],
  Organization: ["name"],
  WebPageElement: ["isAccessibleForFree", "cssSelector"],
  Product: ["name", "image", "offers"],
  Offer: ["price", "priceCurrency", "availability", "url"],
  PodcastSeries: ["name", "url"],
  PodcastEpisode: ["name", "url", "datePublished", "associatedMedia", "partOfSeries"],
  PodcastSeason: ["seasonNumber"],
  AudioObject: ["contentUrl", "encodingFormat"],
  Periodical: ["name", "url"],
  PublicationIssue: ["issueNumber", "name", "datePublished", "url"],
  Article: ["headline", "url"],
  ImageObject: ["url"],
};

/** Every JSON-LD document of the page. */
export function jsonLdOf($: cheerio.CheerioAPI): Doc[] {
  return $('script[type="application/ld+json"]')
    .map((_, s) => JSON.parse($(s).html() ?? "null") as Doc)
    .get() as Doc[];
}

/** The page's one JSON-LD document of this type (a failed expectation if there is not exactly one). */
export function jsonLdOfType($: cheerio.CheerioAPI, type: string): Doc {
  const docs = jsonLdOf($).filter((d) => d["@type"] === type);
  if (docs.length !== 1) throw new Error(`expected one JSON-LD ${type}, found ${docs.length} among ${jsonLdOf($).map((d) => d["@type"])}`);
  return docs[0]!;
}

/**
 * What is wrong with a JSON-LD document, each problem with where it is: a type not in the table,
 * a required property missing or empty, an address that is not absolute on `origin`, a date
 * that is not ISO 8601. Nested typed objects are checked too.
 */
export function structuredDataProblems(doc: Doc, origin: string): string[] {
  const problems: string[] = [];
  if (doc["@context"] !== "https://schema.org") problems.push(`@context is ${String(doc["@context"])}`);
  const visit = (value: unknown, where: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}[${i}]`));
    if (typeof value !== "object" || value === null) return;
    const node = value as Doc;
    const type = node["@type"];
    if (typeof type === "string") {
      const required = REQUIRED[type];
      if (!required) problems.push(`${where}: no rules for @type ${type}`);
      for (const key of required ?? []) {
        const v = node[key];
        if (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0))
          problems.push(`${where} (${type}): no ${key}`);
      }
    }
    for (const [key, v] of Object.entries(node)) {
      if (
        typeof v === "string" &&
        /(^|[a-z])(url|Url|image|contentUrl|webFeed|urlTemplate|logo)$/.test(key) &&
        !v.startsWith(`${origin}/`)
      ) {
        problems.push(`${where}.${key}: ${v} is not an address on ${origin}`);
      }
      if (typeof v === "string" && /^date|Date$/.test(key) && !/^\d{4}(-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?)?)?$/.test(v)) {
        problems.push(`${where}.${key}: ${v} is not an ISO 8601 date`);
      }
      if (key === "image" && Array.isArray(v))
        v.forEach((u, i) => typeof u === "string" && !u.startsWith(`${origin}/`) && problems.push(`${where}.image[${i}]: ${u}`));
      visit(v, `${where}.${key}`);
    }
  };
  visit(doc, String(doc["@type"]));
  return problems;
}
