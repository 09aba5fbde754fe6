import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/app/lib/context/request-context.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { attachment } from "~/app/lib/store/downloads.server";
import { ownInvoicePdf } from "~/app/lib/subscriptions/billing.server";

/** One of the signed-in reader's invoices as a PDF; anyone else's, or none, is a 404. */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const id = z.string().uuid().safeParse(params.id);
  const invoice = id.success ? await ownInvoicePdf(user.id, id.data) : undefined;
  if (!invoice) throw new Response("No such invoice", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return attachment(new Uint8Array(invoice.pdf), "application/pdf", invoice.filename);
});
