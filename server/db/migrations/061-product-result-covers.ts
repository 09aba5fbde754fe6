import { sql, type Kysely } from "kysely";

// A store product's search result showed an empty box: its document was indexed without an
// image. Documents indexed from now on carry the product's cover (server/search/documents.ts);
// those already indexed get the drawn cover's address, which every product has. A product with
// an uploaded cover gets that cover's address when the desk next saves it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update search_document set image = '/art/product/' || (select p.slug from product p where p.id = search_document.ref_id) || '.svg'
    where kind = 'product' and image = ''
      and exists (select 1 from product p where p.id = search_document.ref_id)`.execute(db);
}

export async function down(): Promise<void> {}
