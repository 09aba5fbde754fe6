import type { LoaderFunctionArgs } from "@remix-run/node";
import { artFile } from "~/app/lib/content/art.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const art = await artFile(params.kind ?? "", params.file ?? "");
  if (!art) throw new Response("Not found", { status: 404 });
  return art;
});
