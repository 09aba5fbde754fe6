import { z } from "zod";
import { ISSUE_MESSAGES, issueFieldsSchema } from "~/shared/newsletter-issue-fields";
import { ISSUE_MAX_ARTICLES } from "~/shared/newsletter-issue-vocabulary";
import { utcTime } from "./article-form";
import { articleListFields } from "./curation-forms";

// The desk's newsletter forms (ADR 084), for the server and, loaded after hydration (ADR 047),
// the browser: an issue's draft, whose articles travel as hidden `item` ids with the `version` it
// was read at, as the curation forms' lists do; and the send page's schedule.

const list = articleListFields(ISSUE_MAX_ARTICLES, ISSUE_MESSAGES.articles);

export const issueFormSchema = issueFieldsSchema.extend({ ...list, version: list.version.optional() });

export const sendAtSchema = z.object({ sendAt: utcTime });
