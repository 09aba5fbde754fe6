import type { Transaction } from "kysely";
import type { DB } from "~/server/db/schema";
import type { SeedContent } from "./content-source";

/**
 * What the store's downloads are made of: each book's and case study's sections, and the
 * articles each magazine issue or reprint holds. A seed step of its own (not part of the
 * content step) so that databases seeded before downloads carried the real text get it too.
 */
export async function seedProductTexts(tx: Transaction<DB>, content: Pick<SeedContent, "store" | "productTexts">): Promise<void> {
  const products = new Map((await tx.selectFrom("product").select(["id", "slug"]).execute()).map((p) => [p.slug, p.id]));
  const articles = new Map((await tx.selectFrom("article").select(["id", "slug"]).execute()).map((a) => [a.slug, a.id]));
  const productId = (slug: string, where: string) => {
    const id = products.get(slug);
    if (id === undefined) throw new Error(`${where}: no product "${slug}" in store.json`);
    return id;
  };

  const sections = content.productTexts.flatMap((text) => {
    const id = productId(text.slug, `books/${text.slug}.md`);
    return text.sections.map((s, position) => ({ product_id: id, position, title: s.title, body: s.body }));
  });
  const held = content.store.products.flatMap((p) =>
    (p.articles ?? []).map((slug, position) => {
      const articleId = articles.get(slug);
      if (articleId === undefined) throw new Error(`store.json: ${p.slug} holds no seed article "${slug}"`);
      return { product_id: productId(p.slug, "store.json"), position, article_id: articleId };
    }),
  );
  // One section at a time: a chapter's body is long enough for one statement on its own.
  for (const row of sections) await tx.insertInto("product_section").values(row).execute();
  if (held.length > 0) await tx.insertInto("product_article").values(held).execute();
}
