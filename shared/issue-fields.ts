import { z } from "zod";

// A magazine issue as the desk's forms and the Admin API write it (issue 38): one schema, which
// conform checks in the browser and on the server and the API parses its JSON with. The domain
// (server/desk/magazine) adds the rules that need the database: a code or a month another issue
// has, an article that does not exist.

/** The spec's issue codes: BR and yymm from 2010 on (BR2501), four digits before (9905). */
const ISSUE_CODE = /^(BR\d{4}|\d{4})$/;
export const isIssueCode = (value: string) => ISSUE_CODE.test(value);

const ISSUE_YEARS = { first: 1956, last: 2100 } as const;
export const ISSUE_MAX_FEATURES = 40;

export const ISSUE_MESSAGES = {
  code: "Enter the issue's code: BR and four digits from 2010 on (BR2601), four digits before (9905).",
  year: `Enter the year, from ${ISSUE_YEARS.first} to ${ISSUE_YEARS.last}.`,
  month: "Choose the first month the issue covers.",
  title: "Enter the cover story's title, up to 200 characters.",
  summary: "Enter a summary of up to 2,000 characters.",
  featureTitle: "Give the feature a title of up to 300 characters, or link an article (its title is used).",
  featureArticle: "Name the article by its address (such as /2024/05/its-slug) or its slug, up to 500 characters.",
  features: `An issue lists up to ${ISSUE_MAX_FEATURES} features, each a title, an article, or both.`,
  version: "This form is out of date: open the page again.",
} as const;

const m = ISSUE_MESSAGES;

const text = (max: number, message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, message);

const issueCodeField = z.string({ required_error: m.code, invalid_type_error: m.code }).trim().toUpperCase().regex(ISSUE_CODE, m.code);

const whole = (message: string, min: number, max: number) =>
  z.number({ required_error: message, invalid_type_error: message }).int(message).min(min, message).max(max, message);

const issueText = {
  year: whole(m.year, ISSUE_YEARS.first, ISSUE_YEARS.last),
  month: whole(m.month, 1, 12),
  title: text(200, m.title),
  summary: text(2000, m.summary),
};

const featureObject = z.object({
  title: z.string({ invalid_type_error: m.featureTitle }).trim().max(300, m.featureTitle).optional(),
  /** The article it links to, by address or slug; none for a feature the site has no article of. */
  article: z.string({ invalid_type_error: m.featureArticle }).trim().max(500, m.featureArticle).nullish(),
});

const titleOrArticle = <S extends z.ZodType<{ title?: string; article?: string | null }>>(schema: S) =>
  schema.refine((feature) => Boolean(feature.title) || Boolean(feature.article), { message: m.featureTitle, path: ["title"] });

const features = <S extends z.ZodTypeAny>(feature: S) =>
  z.array(feature, { invalid_type_error: m.features }).max(ISSUE_MAX_FEATURES, m.features);

/** A feature as the desk's form sends it. */
export const issueFeatureSchema = titleOrArticle(featureObject);
export type IssueFeatureFields = z.output<typeof issueFeatureSchema>;

const apiFeatures = features(titleOrArticle(featureObject.strict("A feature's fields are title and article.")));

/** The version a save read: a stale one is refused, never written over what it did not see. */
const issueVersionField = whole(m.version, 1, 2 ** 31 - 1);

/** A new issue: without a code, one is made from its year and month (issueCode). */
export const issueFieldsSchema = z.object({ code: issueCodeField.optional(), ...issueText });
export type IssueFields = z.output<typeof issueFieldsSchema>;

/** The desk's edit form: every field, its features in order (features[0].title…), and the version read. */
export const issueEditSchema = z.object({
  code: issueCodeField,
  ...issueText,
  version: issueVersionField,
  features: features(issueFeatureSchema).default([]),
  /** The feature the form's last row adds. */
  newTitle: featureObject.shape.title,
  newArticle: z.string({ invalid_type_error: m.featureArticle }).trim().max(500, m.featureArticle).optional(),
});

/** The Admin API's POST: the fields, and the features in order. */
export const issueCreateBodySchema = issueFieldsSchema
  .extend({ features: apiFeatures.default([]) })
  .strict("The fields are code, year, month, title, summary and features.");

/** The Admin API's PATCH: any of the fields (`features` replaces the whole list), and the version read. */
export const issuePatchBodySchema = z
  .object({ code: issueCodeField, ...issueText, features: apiFeatures })
  .partial()
  .extend({ version: issueVersionField })
  .strict("The fields are version, code, year, month, title, summary and features.");

/** The desk's and the API's listing: the issues of a year, and a page. */
export const issueQuerySchema = z.object({
  year: z.coerce
    .number({ invalid_type_error: "year is a whole number." })
    .int("year is a whole number.")
    .min(ISSUE_YEARS.first, m.year)
    .max(ISSUE_YEARS.last, m.year)
    .optional(),
  page: z.coerce
    .number({ invalid_type_error: "page is a whole number from 1." })
    .int("page is a whole number from 1.")
    .min(1, "page is a whole number from 1.")
    .max(100_000, "page is at most 100000.")
    .optional(),
});
