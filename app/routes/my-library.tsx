import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLocation } from "@remix-run/react";
import { HelpBox } from "~/app/components/HelpBox";
import * as chips from "~/app/components/chips.css";
import * as prose from "~/app/components/prose.css";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { requireUser } from "~/app/lib/context/request-context.server";

const LIBRARY_TABS = [
  { to: "/my-library", label: "Library" },
  { to: "/my-library/topics", label: "Topics" },
  { to: "/my-library/history/reading", label: "Reading history" },
  { to: "/my-library/history/watched", label: "Watched history" },
  { to: "/my-library/history/sharing", label: "Sharing history" },
  { to: "/my-library/history/purchases", label: "Purchase history" },
  { to: "/my-library/activity", label: "Activity" },
  { to: "/reading-lists", label: "Reading lists" },
] as const;

/** The tab a path belongs to: folders, saving and organising are all the Library tab. */
function currentTab(pathname: string): string {
  const tab = LIBRARY_TABS.find((t) => t.to !== "/my-library" && pathname.startsWith(t.to));
  return tab?.to ?? "/my-library";
}

/** My Library is a signed-in reader's own: guests are sent to sign in first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context });
  return null;
}

export const meta: MetaFunction = () => [{ title: `My Library | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];

export default function MyLibraryLayout() {
  const current = currentTab(useLocation().pathname);
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>My Library</h1>
      </header>
      <HelpBox id="my-library" headline="Your library">
        Everything you save, read, watch and share is kept here. Make folders to sort it your way.
      </HelpBox>
      <nav aria-label="My Library">
        <ul className={chips.tabList}>
          {LIBRARY_TABS.map((t) => (
            <li key={t.to}>
              <Link to={t.to} className={chips.tab} aria-current={t.to === current ? "page" : undefined}>
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </>
  );
}
