import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getAuthor, updateAuthor, type DeskAuthor } from "~/server/desk/catalogue/authors";
import { authorEditSchema } from "~/shared/catalogue-fields";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import * as css from "~/app/components/desk/desk.css";
import { TextAreaField, TextField } from "~/app/components/forms/fields";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { catalogueRow, saveCatalogueRow, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { authorPhotoPath } from "~/app/lib/desk/picture-paths";

// One author (ADR 078): their name, role and biography. The form carries the version it was
// opened at; a save over a newer one is refused with who saved it and when, the saved version
// beside the form, and the form's own changes kept in it.

const loadSchema: SchemaLoader<typeof authorEditSchema> = () => import("~/shared/catalogue-fields").then((m) => m.authorEditSchema);

export async function loader(args: LoaderFunctionArgs) {
  const { row: author, mayEdit, saved } = await catalogueRow(args, "author", getAuthor);
  return { author: { ...author, updatedAt: author.updatedAt && deskTime(author.updatedAt) }, mayEdit, saved };
}

const savedVersion = (author: DeskAuthor): SavedVersion => ({
  version: author.version,
  facts: [
    ["Name", author.name],
    ["Role", author.role],
    ["Biography", author.bio],
  ],
});

export const action = (args: ActionFunctionArgs) => saveCatalogueRow(args, "author", authorEditSchema, updateAuthor, savedVersion);

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Author: ${args.data.author.name}` : "Author");

export default function DeskAuthor() {
  const { author, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-author", loadSchema, actionData?.result, {
    name: author.name,
    role: author.role,
    bio: author.bio,
  });
  return (
    <DeskPage title={author.name}>
      <p className={css.muted}>
        <Link to="/desk/authors">All authors</Link> · slug <span className={css.code}>{author.slug}</span> (fixed) ·{" "}
        <Link to={authorPhotoPath(author.slug)}>Photo</Link>
      </p>
      <CatalogueEditor
        noun="author"
        saved={saved}
        mayEdit={mayEdit}
        stale={stale}
        version={author.version}
        spec={spec}
        button="Save the author"
        about={
          <RowFacts
            title="About this author"
            facts={[
              ["Version", String(author.version)],
              ["Last saved", author.updatedAt ? `${author.updatedAt} by ${author.updatedBy}` : "As the content files made it"],
            ]}
          />
        }
      >
        <TextField meta={fields.name} label="Name" autoComplete="off" />
        <TextField meta={fields.role} label="Role" autoComplete="off" hint="A short line, such as their job title." />
        <TextAreaField meta={fields.bio} label="Biography" rows={8} />
      </CatalogueEditor>
    </DeskPage>
  );
}
