import type { LoaderFunctionArgs } from "@remix-run/node";
import { imageStorage } from "~/server/adapters/image-storage";
import { requestContext } from "~/app/lib/context/request-context.server";
import { uploadedImageResponse } from "~/app/lib/content/uploaded-images.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

/** An uploaded image at one width in one format (ADR 077). */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const db = await requestContext({ request, context }).db();
  return uploadedImageResponse(db, imageStorage(), params.id ?? "", params.file ?? "", request);
});
