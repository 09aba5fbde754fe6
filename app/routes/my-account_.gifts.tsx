import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { listGifts, revokeGift } from "~/server/share/gifts";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import * as css from "~/app/components/subscriber-tools.css";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formatPublished } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";

// Listing and revoking need only an account: a reader whose subscription has lapsed can still
// stop the links they gave.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const gifts = await listGifts(await db(), user.id);
  return {
    gifts: gifts.map((g) => ({
      id: g.id,
      title: g.articleTitle,
      url: g.articleUrl,
      created: formatPublished(g.createdAt),
      revoked: g.revoked,
    })),
    notice: new URL(request.url).searchParams.get("revoked") === "1" ? "Gift link revoked." : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requestContext({ request, context }).user();
  if (!user) throw new Response("Sign in to manage your gift links.", { status: 403 });
  const id = z.string().uuid().safeParse(form.get("giftId"));
  if (!id.success || !(await revokeGift(await db(), user.id, id.data))) throw new Response("No such gift link", { status: 404 });
  return redirect("/my-account/gifts?revoked=1", 303);
}

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Your gift links",
    description: "The articles you have gifted, and their links.",
    path: "/my-account/gifts",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function MyGifts() {
  const { gifts, notice } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Your gift links</h1>
      <p>
        Anyone with one of these links can read the article in full. Revoke a link to stop it working; it still counts towards the
        month&apos;s gifts. <Link to="/my-account">Back to My account</Link>
      </p>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      {gifts.length === 0 ? (
        <p>You have not gifted any articles yet.</p>
      ) : (
        <ul className={css.notes}>
          {gifts.map((g) => (
            <li key={g.id} className={css.note}>
              <p>
                <Link to={g.url}>{g.title}</Link>
              </p>
              <p className={css.noteMeta}>
                Gifted on {g.created}. {g.revoked ? "Revoked." : "Active."}
              </p>
              {g.revoked ? null : (
                <Form method="post">
                  <input type="hidden" name="giftId" value={g.id} />
                  <button type="submit" className={forms.secondaryButton}>
                    Revoke
                    <span className="visually-hidden">
                      {" "}
                      the gift link for “{g.title}”, gifted on {g.created}
                    </span>
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
