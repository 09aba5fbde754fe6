import { parsePaging, type Paging } from "~/shared/pagination";
import { REFERRAL_SEARCH_MORE_RESULTS } from "~/shared/referrals";
import { readSearchForm, type SearchForm } from "~/shared/search-form";
import { matchingSubjects, searchContent, SEARCH_PAGE_SIZE } from "~/server/search";
import { withReferral } from "~/server/content/streams";
import { topicBySlug } from "~/server/content/topics";
import { config, db } from "~/app/lib/context/db.server";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import type { RequestArgs } from "~/app/lib/context/request-context.server";

// What a search finds, for the search page and the search stream service (GET
// /service/search/{number}/{size}): the same form, the same snippets (gated text only for a
// subscriber) and the same referral code on "more results" links.

export { SEARCH_PAGE_SIZE };

/** A search from a query string as the search page's GET form sends it; null results without a query. */
export function runSearch({ request, context }: RequestArgs, params: URLSearchParams, size = SEARCH_PAGE_SIZE, referralOverride?: string) {
  const unlimited = config().STREAM_UNLIMITED_LOADING;
  return searchFor(
    { request, context },
    readSearchForm(params),
    parsePaging(params, unlimited),
    size,
    referralOverride ?? params.get("referral"),
  );
}

/** A search as the form reads (the page's, or the service's POST body); null results without a query. */
export async function searchFor(
  { request, context }: RequestArgs,
  form: SearchForm,
  paging: Paging,
  size: number,
  referralCode: string | null,
) {
  const unlimited = config().STREAM_UNLIMITED_LOADING;
  if (!form.q) return { form, results: null, subjects: [], unlimited };
  const database = await db();
  const [chosen, subscriber] = await Promise.all([
    form.topic ? topicBySlug(database, form.topic) : undefined,
    currentSubscriber({ request, context }),
  ]);
  const topic = chosen && { id: chosen.id, name: chosen.name, slug: chosen.slug };
  // Snippets come from gated paragraphs only for a subscriber; anyone else sees the free preview's.
  const access = subscriber ? "full" : { previewBlocks: config().PAYWALL_PREVIEW_PARAGRAPHS };
  const year = (y: number | null, end: "start" | "end") => (y === null ? null : `${y}-${end === "start" ? "01-01" : "12-31"}`);
  const [results, subjects] = await Promise.all([
    searchContent(
      database,
      {
        query: form.q,
        kinds: form.types,
        topicId: topic?.id ?? null,
        from: year(form.from, "start"),
        to: year(form.to, "end"),
        sort: form.sort,
        paging,
        size,
      },
      access,
    ),
    matchingSubjects(database, form.q),
  ]);
  // Spec 9: links reached through search's "more results" carry its referral code.
  const referral = referralCode === REFERRAL_SEARCH_MORE_RESULTS ? REFERRAL_SEARCH_MORE_RESULTS : null;
  const entries = results.entries.map((e) => ({ ...e, url: withReferral(e.url, referral) }));
  // The chosen topic stays in the filter even when nothing matches in it.
  const topics = topic && !results.topics.some((t) => t.id === topic.id) ? [...results.topics, { ...topic, count: 0 }] : results.topics;
  return {
    form: { ...form, topic: topic?.slug ?? null } satisfies SearchForm,
    results: { ...results, entries, topics },
    subjects,
    unlimited,
  };
}
