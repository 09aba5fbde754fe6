import { useFetcher, useLocation } from "@remix-run/react";
import type { FollowKind } from "~/server/library/follows";
import { SignInPrompt } from "./SignInPrompt";
import * as css from "./follows.css";
import { VIA_FETCHER, VIA_FIELD } from "~/app/lib/forms/via-fetcher";

export type FollowActionData = { ok: true; following: boolean } | { ok: false; signIn: true } | { ok: false; message: string };

interface Props {
  kind: FollowKind;
  target: string;
  following: boolean;
  /** Button text when not following and when following. */
  labels: { off: string; on: string };
  /** Said after the label to screen readers where several buttons share a page ("to The Daily Brief"). */
  hiddenName?: { off: string; on: string };
  redirectTo?: string;
}

/**
 * Follow / unfollow as a plain form post to /follow that comes back to this page. With JS it
 * posts through a fetcher: the button shows the new state at once and is disabled while posting.
 */
export function FollowButton({ kind, target, following, labels, hiddenName, redirectTo }: Props) {
  const fetcher = useFetcher<FollowActionData>();
  const location = useLocation();
  const back = redirectTo ?? `${location.pathname}${location.search}`;
  const posting = fetcher.state !== "idle";
  const pendingIntent = fetcher.formData?.get("intent");
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  // A fetcher turns idle only once the page's data is reloaded, so `following` is current then.
  const shown = pendingIntent ? pendingIntent === "follow" : following;
  return (
    <div className={css.followRow}>
      <fetcher.Form
        method="post"
        action="/follow"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          form.set(VIA_FIELD, VIA_FETCHER);
          fetcher.submit(form, { method: "post", action: "/follow" });
        }}
      >
        <input type="hidden" name="intent" value={shown ? "unfollow" : "follow"} />
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="target" value={target} />
        <input type="hidden" name="redirectTo" value={back} />
        <button type="submit" className={css.followButton} data-following={shown ? "true" : "false"} disabled={posting}>
          {shown ? labels.on : labels.off}
          {hiddenName ? <span className="visually-hidden"> {shown ? hiddenName.on : hiddenName.off}</span> : null}
        </button>
      </fetcher.Form>
      <div aria-live="polite">
        {result && !result.ok ? (
          "signIn" in result ? (
            <SignInPrompt redirectTo={back} className={css.message} />
          ) : (
            <p className={css.message}>{result.message}</p>
          )
        ) : null}
      </div>
    </div>
  );
}
