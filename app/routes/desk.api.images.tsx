import { keyActor } from "~/server/desk/api-keys";
import { apiImage } from "~/server/desk/images";
import { storeUpload } from "~/server/images/uploads";
import { imageStorage } from "~/server/adapters/image-storage";
import { isStorableText } from "~/server/db/storable-text";
import { uploadImage } from "~/app/lib/api/groups/admin";
import { apiError, apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { ALT_MAX, ALT_TOO_LONG, MAX_UPLOAD_BODY, UPLOAD_REFUSED } from "~/app/lib/desk/image-upload.server";
import { readFormBody } from "~/app/lib/forms/read-body.server";

/** POST /desk/api/images (the Admin API): a multipart upload, read as it arrives up to its limit. */
const route = apiRoute(
  serve(uploadImage, async ({ request, context, key }) => {
    if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data"))
      return invalidFields({ file: [UPLOAD_REFUSED] }, "Send the image as multipart/form-data, in a part named file.");
    const form = await readFormBody(request, { maxBytes: MAX_UPLOAD_BODY, maxFields: 10 });
    if (form === "too-large") return apiError(413, "too_large", UPLOAD_REFUSED);
    if (typeof form === "string") return apiError(400, "unreadable_body", "The body could not be read as a multipart form.");
    const file = form.get("file");
    const alt = form.get("alt") ?? "";
    if (!file || typeof file === "string" || file.size === 0) return invalidFields({ file: [UPLOAD_REFUSED] });
    if (typeof alt !== "string" || !isStorableText(alt) || alt.trim().length > ALT_MAX) return invalidFields({ alt: [ALT_TOO_LONG] });
    const stored = await storeUpload(
      await requestContext({ request, context }).db(),
      imageStorage(),
      keyActor(key),
      new Uint8Array(await file.arrayBuffer()),
      new Date(),
      { alt },
    );
    if (!stored.ok)
      return stored.reason === "too-large"
        ? apiError(413, "too_large", stored.message)
        : invalidFields({ file: [stored.message] }, stored.message);
    return apiJson(apiImage(stored.image, config().siteUrl), { status: stored.existing ? 200 : 201 });
  }),
);

export const loader = route.loader;
export const action = route.action;
