import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { listApiKeys, revokeApiKey } from "~/server/desk/api-keys";
import { ROLE_NAMES } from "~/shared/staff-roles";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// The staff API keys (ADR 074), for admins: every key with its roles, public prefix and when it
// was last used, and a button to revoke a live one. Keys are made on the command line
// (`npm run staff -- add-key`), which shows the key once.

const ALREADY_REVOKED = "That key was revoked already, or no longer exists.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "api-keys.list");
  const keys = await listApiKeys(await requestContext({ request, context }).db());
  const query = new URL(request.url).searchParams;
  return {
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      roles: key.roles.map((role) => ROLE_NAMES[role]).join(", "),
      created: `${deskTime(key.createdAt)} by ${key.createdBy}`,
      lastUsed: key.lastUsedAt ? deskTime(key.lastUsedAt) : "Never",
      revoked: key.revokedAt ? `${deskTime(key.revokedAt)} by ${key.revokedBy ?? "?"}` : null,
    })),
    revoked: query.get("revoked") === "1",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "api-keys.list");
  const form = await readForm(request);
  if (form.get("intent") !== "revoke") notFound();
  requireAction(staff, "api-keys.revoke");
  const id = form.get("keyId");
  const database = await requestContext({ request, context }).db();
  if (typeof id === "string" && id.length <= 64 && (await revokeApiKey(database, auditActor(staff), id, new Date())))
    return redirect("/desk/api-keys?revoked=1", 303);
  return data({ error: ALREADY_REVOKED }, { status: 409 });
}

export const meta: MetaFunction = (args) => deskMeta(args, "API keys");

export default function DeskApiKeys() {
  const { keys, revoked } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <DeskPage title="API keys">
      <p className={css.muted}>
        Tools call the Admin API at /desk/api/ with one of these keys. Make a key with{" "}
        <code>npm run staff -- add-key --name … --role …</code>: it is shown once, there.
      </p>
      {revoked ? (
        <p className={forms.success} role="status">
          Key revoked. Calls with it are refused from now on.
        </p>
      ) : null}
      {failed ? (
        <p className={forms.formMessage} role="alert">
          {failed.error}
        </p>
      ) : null}
      {keys.length === 0 ? (
        <p>No API keys yet.</p>
      ) : (
        <table className={css.table}>
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Roles</th>
              <th scope="col">Made</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td data-label="Name">{key.name}</td>
                <td data-label="Prefix">
                  <code>{key.prefix}</code>
                </td>
                <td data-label="Roles">{key.roles}</td>
                <td data-label="Made">{key.created}</td>
                <td data-label="Last used">{key.lastUsed}</td>
                <td data-label="Status">
                  {key.revoked ? (
                    `Revoked ${key.revoked}`
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="keyId" value={key.id} />
                      <button type="submit" className={forms.secondaryButton}>
                        Revoke<span className="visually-hidden"> {key.name}</span>
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </DeskPage>
  );
}
