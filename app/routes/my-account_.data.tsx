import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EXPORT_SECTIONS, type ExportValue } from "~/server/privacy/export";
import { PersonalData } from "~/app/components/account/PersonalData";
import * as prose from "~/app/components/prose.css";
import { formPageMeta } from "~/app/lib/forms/meta";
import { requireUser } from "~/app/lib/context/request-context.server";
import { ownData } from "~/app/lib/privacy/account.server";
import { DOWNLOAD_MY_DATA } from "~/app/lib/privacy/messages";

/** "Download my data" (ADR 089): everything held about the signed-in reader, readable, with the JSON file to download. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const data = await ownData(user);
  return {
    exportedAt: data.exportedAt,
    sections: EXPORT_SECTIONS.map((s) => ({ ...s, value: data.sections[s.key] ?? null })) as {
      key: string;
      title: string;
      value: ExportValue;
    }[],
  };
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, { title: "Your data", description: "Everything Meridian Review holds about you.", path: "/my-account/data" });

export default function MyData() {
  const { exportedAt, sections } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Your data</h1>
      <p>
        This is everything we hold about you, as of {exportedAt.replace("T", " ").slice(0, 16)} UTC. Times are in UTC; amounts are in US
        cents. We never show or send your password, which we keep only as a one-way hash, nor the secret parts of your sign-in, links and
        cards.
      </p>
      <p>
        <a href="/my-account/data.json" download>
          {DOWNLOAD_MY_DATA} (a JSON file)
        </a>{" "}
        · <Link to="/my-account">Back to My account</Link>
      </p>
      <PersonalData sections={sections} />
    </div>
  );
}
