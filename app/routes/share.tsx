import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { mailer } from "~/server/adapters/mail";
import { recordShare } from "~/server/library/history";
import { networkShareUrl, NETWORK_NAMES, SOCIAL_NETWORKS, type SocialNetwork } from "~/shared/share-links";
import { shareableItem, shareByEmail } from "~/server/share/email";
import { tab as tabLink, tabList } from "~/app/components/chips.css";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm } from "~/app/components/forms/useSpecForm";
import { EmailShareInputs, loadEmailShareSchema } from "~/app/components/library/EmailShareInputs";
import * as css from "~/app/components/library/library.css";
import { SignInPrompt } from "~/app/components/SignInPrompt";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { emailShareSchema, SHARE_DAILY_LIMIT, shareRefSchema } from "~/app/lib/content/share-form";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";

const TABS = [...SOCIAL_NETWORKS, "email"] as const;
type Tab = (typeof TABS)[number];

/** What is being shared; a subscriber-only video only by its subscribers (spec 6). */
async function shareable({ request, context }: RequestArgs, values: { type: unknown; id: unknown }) {
  const ref = shareRefSchema.safeParse(values);
  const user = await requestContext({ request, context }).user();
  const found = ref.success ? await shareableItem(await db(), ref.data, user?.id) : undefined;
  if (!found || (!found.ok && found.error === "missing")) throw new Response("Nothing to share here", { status: 404 });
  if (!found.ok) throw new Response("Only subscribers may share this video", { status: 403 });
  return { item: found.item, user };
}

const sharePath = (item: { type: string; id: number }, tab: Tab, extra: Record<string, string> = {}) =>
  `/share?${new URLSearchParams({ type: item.type, id: String(item.id), tab, ...extra })}`;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const { item, user } = await shareable({ request, context }, { type: params.get("type"), id: params.get("id") });
  const tab = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? (params.get("tab") as Tab) : "facebook";
  return {
    item: { type: item.type, id: item.id, title: item.title, url: item.url, contentType: item.contentType },
    pageUrl: `${config().siteUrl}${item.url}`,
    tab,
    signedIn: user !== undefined,
    from: user?.email ?? "",
    sent: params.get("done") === "email",
  };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, {
    title: args.data ? `Share “${args.data.item.title}”` : "Share",
    description: "Share an article or video.",
    path: "/share",
  });

/**
 * A signed-in reader shares: to a network (recorded in their sharing history, then on to the
 * network's own share page) or by e-mail through the site's mail service.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { item, user } = await shareable({ request, context }, { type: form.get("type"), id: form.get("id") });
  if (!user) {
    const back = sharePath(item, form.get("intent") === "email" ? "email" : "facebook");
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(back)}`, 303);
  }
  const database = await db();
  if (form.get("intent") === "social") {
    const network = form.get("provider");
    if (!SOCIAL_NETWORKS.includes(network as SocialNetwork)) throw new Response("Unknown network", { status: 400 });
    await recordShare(database, user.id, { type: item.type, id: item.id }, network as SocialNetwork, 0);
    return redirect(networkShareUrl(network as SocialNetwork, `${config().siteUrl}${item.url}`, item.title), 303);
  }
  if (form.get("intent") !== "email") throw new Response("Unknown action", { status: 400 });
  const submission = parseWithZod(form, { schema: emailShareSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const sent = await shareByEmail(database, mailer(), {
    userId: user.id,
    senderName: `${user.firstName} ${user.lastName}`,
    from: submission.value.from,
    to: submission.value.sharedWith,
    message: submission.value.description,
    item,
    siteUrl: config().siteUrl,
  });
  if (!sent.ok) {
    return rejectForm(submission, { formErrors: [SHARE_DAILY_LIMIT] }, 429);
  }
  if (sentByFetcher(form)) return data({ sent: true as const });
  return redirect(sharePath(item, "email", { done: "email" }), 303);
}

export default function SharePage() {
  const { item, tab, signedIn, pageUrl, sent } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="share-title">
      <h1 id="share-title">Share “{item.title}”</h1>
      <p>
        <Link to={item.url}>Back to the {item.type === "podcast" ? "episode" : item.type}</Link>
      </p>
      <nav aria-label="Share with">
        <ul className={tabList}>
          {TABS.map((t) => (
            <li key={t}>
              <Link to={sharePath(item, t)} className={tabLink} aria-current={t === tab ? "page" : undefined} preventScrollReset replace>
                {NETWORK_NAMES[t]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === "email" ? (
        <EmailPanel sent={sent} />
      ) : signedIn ? (
        <Form method="post" action={sharePath(item, tab)}>
          <input type="hidden" name="intent" value="social" />
          <input type="hidden" name="provider" value={tab} />
          <input type="hidden" name="type" value={item.type} />
          <input type="hidden" name="id" value={item.id} />
          <p>It opens {NETWORK_NAMES[tab]}'s own page to write your post; we keep the share in your sharing history.</p>
          <button type="submit" className={primaryButton}>
            Share on {NETWORK_NAMES[tab]}
          </button>
        </Form>
      ) : (
        <>
          <p>
            Post a link to this {item.type} on {NETWORK_NAMES[tab]} from your own account there.
          </p>
          <a className={primaryButton} href={networkShareUrl(tab, pageUrl, item.title)} target="_blank" rel="noopener noreferrer">
            Connect with {NETWORK_NAMES[tab]}
            <span className="visually-hidden"> (opens in a new window)</span>
          </a>
        </>
      )}
    </section>
  );
}

function EmailPanel({ sent }: { sent: boolean }) {
  const { item, signedIn, from } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const { form, fields, summary, submitDisabled } = useSpecForm("email-share", loadEmailShareSchema, result, { from });
  if (!signedIn) return <SignInPrompt redirectTo={sharePath(item, "email")} />;
  return (
    <>
      {sent ? (
        <p className={css.notice} role="status">
          Shared via e-mail
        </p>
      ) : null}
      <ErrorSummary items={summary} />
      <Form method="post" action={sharePath(item, "email")} {...getFormProps(form)} noValidate className={forms.form}>
        <EmailShareInputs fields={fields} item={item} />
        <p className={forms.hint}>We send the title, summary and a link. Recipients are not added to any list.</p>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Send
          </button>
        </div>
      </Form>
    </>
  );
}
