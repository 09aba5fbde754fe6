import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { areasFor, pagesFor, type DeskArea } from "~/server/desk/roles";
import { endDeskSession } from "~/server/desk/staff";
import { deskToDo } from "~/server/desk/to-do";
import { ROLE_NAMES } from "~/shared/staff-roles";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk, requireStaff } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// The desk's home (ADR 072): what the staff member's roles let them do. Areas still to be built
// are named for the roles that will use them, as headings without links.

const AREA_DESCRIPTIONS: Record<DeskArea["id"], string> = {
  editorial: "Articles, authors, topics, reading lists and the home page.",
  media: "Videos and podcast episodes: their details, files and captions.",
  store: "The store's catalogue, orders and promotions.",
  service: "Readers' accounts, subscriptions and orders, for customer service.",
  reports: "Sales, subscriptions and the meter's funnel over a range of days, with CSV.",
  staff: "Who works at the desk, and their roles.",
  audit: "Every desk action: who, what, when.",
  "api-keys": "The keys tools use for the Admin API: when each was last used, and revoking one.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "desk.enter");
  const db = await requestContext({ request, context }).db();
  return {
    name: `${staff.user.firstName} ${staff.user.lastName}`,
    roles: staff.roles.map((role) => ROLE_NAMES[role]),
    until: deskTime(staff.deskSessionEnds!),
    areas: areasFor(staff.roles).map((area) => ({
      id: area.id,
      title: area.title,
      description: AREA_DESCRIPTIONS[area.id],
      links: pagesFor(area, staff.roles),
    })),
    toDo: await deskToDo(db, staff.roles),
  };
}

/** Leaving the desk ends its session; the reader stays signed in to the site. */
export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff({ request, context });
  const form = await readForm(request);
  if (form.get("intent") !== "leave") notFound();
  const asker = requestContext({ request, context });
  await endDeskSession(await asker.db(), (await asker.sessionToken())!, auditActor(staff), new Date());
  return redirect("/", 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "The desk");

export default function DeskHome() {
  const { name, roles, until, areas, toDo } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="The desk">
      <p className={css.muted}>
        {name}: {roles.join(", ")}. Your desk session lasts until {until}. <Link to="/desk/security">Your second factor</Link>
      </p>
      {toDo.length > 0 ? (
        <section aria-labelledby="desk-to-do">
          <h2 id="desk-to-do" className={css.sectionHeading}>
            Waiting
          </h2>
          <ul className={css.toDo}>
            {toDo.map((item) => (
              <li key={item.path}>
                <Link className={css.toDoLink} to={item.path} data-count={item.count}>
                  <span className={css.toDoCount}>{item.count.toLocaleString("en-US")}</span>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <nav aria-label="Desk areas">
        <ul className={css.areas}>
          {areas.map((area) => (
            <li key={area.id} className={area.links.length > 0 ? css.area : css.areaLater}>
              <h2>{area.title}</h2>
              <p>{area.description}</p>
              {area.links.length > 0 ? (
                <ul className={css.areaLinks}>
                  {area.links.map((link) => (
                    <li key={link.path}>
                      <Link className={css.areaLink} to={link.path}>
                        {link.title}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className={css.muted}>Not open yet.</p>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </DeskPage>
  );
}
