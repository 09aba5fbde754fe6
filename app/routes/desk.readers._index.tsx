import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { findReaders, READERS_PAGE_SIZE } from "~/server/desk/service";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { listingQuery } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Customer service (ADR 087): find a reader by e-mail address (in full or its start), name,
// print account number or order number, in pages with plain links that keep the search.

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "readers.find");
  const { q, page, problem } = listingQuery(args.request);
  const found = q ? await findReaders(await requestContext(args).db(), q, page) : { readers: [], total: 0, page: 1 };
  return { q, page: found.page, problem, total: found.total, readers: found.readers, pageSize: READERS_PAGE_SIZE };
}

export async function action(args: ActionFunctionArgs) {
  await requireDesk(args, "readers.find");
  notFound();
}

export const meta: MetaFunction = (args) => deskMeta(args, "Readers");

const STATUS: Record<string, string> = { active: "Open", restricted: "Restricted" };

export default function DeskReaders() {
  const { readers, ...listing } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Readers">
      <p className={css.muted}>Find a reader by e-mail address (in full or how it starts), name, print account number or order number.</p>
      <CatalogueListing
        base="/desk/readers"
        noun={["reader", "readers"]}
        {...listing}
        caption="Readers found"
        order="the best matches first"
        idle="Type an address, a name or a number to search."
        columns={["E-mail address", "Name", "Account", "Found by", "Since"]}
        rows={readers.map((reader) => ({
          key: reader.id,
          cells: [
            <Link key="email" to={`/desk/readers/${reader.id}`}>
              {reader.email}
            </Link>,
            reader.name,
            STATUS[reader.status] ?? reader.status,
            reader.matched,
            reader.createdAt.slice(0, 10),
          ],
        }))}
      />
    </DeskPage>
  );
}
