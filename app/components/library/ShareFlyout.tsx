import { getFormProps } from "@conform-to/react";
import type { LibraryContentType } from "~/server/db/schema";
import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { NETWORK_NAMES, SOCIAL_NETWORKS } from "~/shared/share-links";
import type { action as shareAction, loader as shareLoader } from "~/app/routes/share";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm } from "~/app/components/forms/useSpecForm";
import { ShareLinks } from "~/app/components/ShareLinks";
import { SignInPrompt } from "~/app/components/SignInPrompt";
import { useDismiss } from "~/app/components/useDismiss";
import { EmailShareInputs, loadEmailShareSchema } from "./EmailShareInputs";
import * as css from "./library.css";
import * as controls from "~/app/components/controls.css";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";

const TABS = [...SOCIAL_NETWORKS, "email"] as const;
type Tab = (typeof TABS)[number];
/** Spec: a confirmation stays 2 s. */
const CONFIRMATION_MS = 2000;

/** The share tabs, Facebook first, opened beside the Share link (ShareControl loads this lazily). */
export default function ShareFlyout({
  page,
  type,
  id,
  title,
  url,
  onClose,
}: {
  page: string;
  type: LibraryContentType;
  id: number;
  title: string;
  url: string;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>("facebook");
  const panel = useRef<HTMLDivElement>(null);
  const baseId = useId();

  useDismiss(panel, onClose);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, []);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length]!;
    setTab(next);
    panel.current?.querySelector<HTMLElement>(`#${CSS.escape(`${baseId}-tab-${next}`)}`)?.focus();
  };

  return (
    <div ref={panel} className={css.flyout} role="dialog" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`} className={css.flyoutTitle}>
        Share “{title}”
      </h2>
      <div role="tablist" aria-label="Share with" className={css.checks}>
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t}`}
            aria-selected={t === tab}
            aria-controls={`${baseId}-panel`}
            tabIndex={t === tab ? 0 : -1}
            className={controls.linkButton}
            onClick={() => setTab(t)}
            onKeyDown={onTabKey}
          >
            {NETWORK_NAMES[t]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === "email" ? (
          <EmailShareForm page={page} onSent={onClose} />
        ) : (
          <ShareLinks type={type} id={id} url={url} title={title} heading={`On ${NETWORK_NAMES[tab]}`} only={tab} />
        )}
      </div>
      <button type="button" className={css.flyoutClose} onClick={onClose}>
        Close<span className="visually-hidden"> the share panel</span>
      </button>
    </div>
  );
}

function EmailShareForm({ page, onSent }: { page: string; onSent: () => void }) {
  const loader = useFetcher<typeof shareLoader>();
  const load = loader.load;
  useEffect(() => {
    load(`${page}&tab=email`);
  }, [load, page]);
  const data = loader.data;
  if (!data) return <p role="status">Loading…</p>;
  if (!data.signedIn) return <SignInPrompt redirectTo={`${page}&tab=email`} />;
  return <EmailShareFields action={`${page}&tab=email`} item={data.item} from={data.from} onSent={onSent} />;
}

/** The e-mail share form, made once the reader's address is known (it is the form's default). */
function EmailShareFields({
  action,
  item,
  from,
  onSent,
}: {
  action: string;
  item: { type: string; id: number };
  from: string;
  onSent: () => void;
}) {
  const sender = useFetcher<typeof shareAction>();
  const result = sender.data && "result" in sender.data ? sender.data.result : undefined;
  const sent = sender.state === "idle" && sender.data !== undefined && "sent" in sender.data;
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(onSent, CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [sent, onSent]);
  const { form, fields, submitDisabled } = useSpecForm("email-share-flyout", loadEmailShareSchema, result, { from });
  if (sent) {
    return (
      <p role="status" className={css.notice}>
        Shared via e-mail
      </p>
    );
  }
  const formError = result?.error?.[""]?.[0];
  return (
    <sender.Form method="post" action={action} {...getFormProps(form)} noValidate className={forms.form}>
      <ViaFetcherField />
      <EmailShareInputs fields={fields} item={item} />
      {formError ? (
        <p className={forms.formMessage} role="alert">
          {formError}
        </p>
      ) : null}
      <div className={forms.actions}>
        <button type="submit" className={primaryButton} disabled={submitDisabled || sender.state !== "idle"}>
          Send
        </button>
      </div>
    </sender.Form>
  );
}
