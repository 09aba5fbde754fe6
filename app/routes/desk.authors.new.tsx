import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { createAuthor } from "~/server/desk/catalogue/authors";
import { authorFieldsSchema } from "~/shared/catalogue-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { TextAreaField, TextField } from "~/app/components/forms/fields";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requireDesk } from "~/app/lib/desk/access.server";
import { createCatalogueRow } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// A new author (ADR 078). Their slug is made from the name unless given, and is fixed once made.

const loadSchema: SchemaLoader<typeof authorFieldsSchema> = () => import("~/shared/catalogue-fields").then((m) => m.authorFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "authors.edit");
  return null;
}

export const action = (args: ActionFunctionArgs) => createCatalogueRow(args, "author", authorFieldsSchema, createAuthor);

export const meta: MetaFunction = (args) => deskMeta(args, "Add an author");

export default function DeskNewAuthor() {
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-author", loadSchema, actionData?.result);
  return (
    <DeskPage title="Add an author">
      <p className={css.muted}>
        <Link to="/desk/authors">All authors</Link>
      </p>
      <CatalogueForm spec={spec} button="Add the author">
        <TextField meta={fields.name} label="Name" autoComplete="off" />
        <TextField
          meta={fields.slug}
          label="Slug (optional)"
          autoComplete="off"
          hint="Lowercase letters, digits and hyphens; left empty, it is made from the name. Articles, the content files and the Admin API name the author by it, so it cannot change once the author is added."
        />
        <TextField meta={fields.role} label="Role" autoComplete="off" hint="A short line, such as their job title." />
        <TextAreaField meta={fields.bio} label="Biography" rows={8} />
      </CatalogueForm>
    </DeskPage>
  );
}
