import type { MetaArgs } from "@remix-run/node";
import { formPageMeta } from "~/app/lib/forms/meta";

/** The library pages' meta: the folder's name when one is open; "Error: " after a failed form. */
export function libraryMeta(args: Pick<MetaArgs, "data" | "matches">) {
  const active = (args.data as { active?: { name: string } | null } | undefined)?.active;
  return formPageMeta(args, {
    title: active ? `${active.name}: My Library` : "My Library",
    description: "Your saved articles and videos, in folders of your own.",
    path: "/my-library",
  });
}
