import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { imageStorage } from "~/server/adapters/image-storage";
import { getDeskAvailability, uploadAvailabilityFile } from "~/server/desk/products";
import { MEDIA_ACCEPT, MEDIA_RULES } from "~/shared/media-files";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { MediaUpload } from "~/app/components/desk/media/MediaUpload";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime, fileSize } from "~/app/lib/desk/format";
import { readMediaForm, refusalStatus } from "~/app/lib/desk/media-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { idParam } from "~/app/lib/desk/store-catalogue.server";
import { redirect } from "~/app/lib/http/responses.server";

// A digital format's download file (ADR 091): uploaded on its own (multipart, no script needed),
// judged by its bytes, kept where every instance reads it, and what buyers download from then on,
// those who ordered before included, in place of the file made from the product's texts.

function ids(args: LoaderFunctionArgs | ActionFunctionArgs) {
  return { productId: idParam(args.params.id), availabilityId: idParam(args.params.availabilityId) };
}

export async function loader(args: LoaderFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const { productId, availabilityId } = ids(args);
  const format = await getDeskAvailability(await requestContext(args).db(), productId, availabilityId);
  if (!format || !format.digital) notFound();
  const { flash, setCookie } = await takeDeskFlash(args.request, staff.user.id);
  return data(
    {
      format: { id: format.id, productId: format.productId, title: `${format.format}: ${format.productTitle}` },
      now: format.file
        ? `Uploaded: ${format.file.extension.toUpperCase()}, ${fileSize(format.file.bytes)}, by ${format.file.uploadedBy} at ${deskTime(format.file.uploadedAt)}.`
        : "None uploaded: buyers get a file made from the product's texts.",
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const { productId, availabilityId } = ids(args);
  const database = await requestContext(args).db();
  // An unknown format stores nothing.
  const format = await getDeskAvailability(database, productId, availabilityId);
  if (!format || !format.digital) notFound();
  const form = await readMediaForm(
    args.request,
    (intent) => (intent === "download" ? "download" : undefined),
    (_intent, file) => uploadAvailabilityFile(database, imageStorage(), deskEditor(staff), productId, availabilityId, file, new Date()),
  );
  if (!form.ok) return data({ error: form.message }, { status: form.status });
  if (!form.stored.ok) {
    if (form.stored.reason === "not-found") notFound();
    return data({ error: form.stored.message }, { status: refusalStatus(form.stored.reason) });
  }
  const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: "The file is uploaded: buyers download it now." });
  return redirect(`/desk/products/${productId}/formats/${availabilityId}/file`, { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `File: ${args.data.format.title}` : "Download file");

export default function DeskFormatFile() {
  const { format, now, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={`File: ${format.title}`}>
      <p className={css.muted}>
        <Link to={`/desk/products/${format.productId}/formats/${format.id}`}>The format&apos;s details</Link>
      </p>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      <MediaUpload
        intent="download"
        title="The download file"
        label="Download file"
        accept={MEDIA_ACCEPT.download}
        rules={MEDIA_RULES.download}
        now={now}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
