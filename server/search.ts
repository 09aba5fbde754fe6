import { sql } from "kysely";
import { cardQuery } from "./article-cards";
import type { Database } from "./db/connection";
import type { Paging } from "../shared/pagination";
import { pageOfCards, type StreamPage } from "./streams";

export const SEARCH_PAGE_SIZE = 10;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Articles whose title, dek or summary contain every word of the query (case-insensitive). */
export async function searchArticles(db: Database, query: string, paging: Paging): Promise<StreamPage> {
  const words = query.toLowerCase().split(" ").filter(Boolean).slice(0, 8);
  const filter = <Q extends ReturnType<typeof cardQuery>>(q: Q): Q => {
    let out = q;
    for (const word of words) {
      const pattern = `%${escapeLike(word)}%`;
      out = out.where(
        sql<boolean>`(lower(article.title) like ${pattern} escape '\\' or lower(article.dek) like ${pattern} escape '\\' or lower(article.summary) like ${pattern} escape '\\')`,
      ) as Q;
    }
    return out;
  };
  const countRow = await filter(cardQuery(db))
    .clearSelect()
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return pageOfCards(db, filter(cardQuery(db)), Number(countRow.n), SEARCH_PAGE_SIZE, paging);
}
