import type { MetaArgs } from "@remix-run/node";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { FORM_FAILED } from "~/app/lib/forms/meta";

/** A desk page's title ("Error: " first after a failed post) and robots meta: never indexed, its links never followed. */
export function deskMeta(args: Pick<MetaArgs, "data">, title: string) {
  const failed = Boolean((args.data as Record<string, unknown> | undefined)?.[FORM_FAILED]);
  return [{ title: `${failed ? "Error: " : ""}${title} | ${SITE_NAME} desk` }, { name: "robots", content: "noindex, nofollow" }];
}
