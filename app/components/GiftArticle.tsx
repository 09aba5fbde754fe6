import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { NO_GIFTS_LEFT } from "~/app/lib/paywall/gift-messages";
import { primaryButton } from "./controls.css";
import { useHydrated } from "./useHydrated";
import * as forms from "./forms/forms.css";
import * as css from "./subscriber-tools.css";

/** The page's own form route (Post/Redirect/Get), and the service API call the live form makes. */
const GIFT_FORM_ACTION = "/article-gift";
const GIFT_API = "/api/article-gift/give-gift";

type GiftReply = { articleGiftURL: string; articleGiftsLeft: number } | { code: string; message: string; articleGiftsLeft?: number };

const giftsLeftText = (n: number) => (n > 0 ? `${n} ${n === 1 ? "gift" : "gifts"} left this month` : NO_GIFTS_LEFT);

/**
 * "Gift this article": a plain form whose Post/Redirect/Get brings the new link back to this
 * page; with JS it posts with a fetcher and shows the link in place, with a Copy button.
 */
export function GiftArticle({ articleUrl, giftsLeft, giftUrl }: { articleUrl: string; giftsLeft: number; giftUrl: string | null }) {
  const fetcher = useFetcher<GiftReply>();
  const hydrated = useHydrated();
  const reply = fetcher.data;
  const url = reply && "articleGiftURL" in reply ? reply.articleGiftURL : giftUrl;
  const left = reply?.articleGiftsLeft ?? giftsLeft;
  const error = reply && "message" in reply && reply.message !== NO_GIFTS_LEFT ? reply.message : null;
  return (
    <section id="gift" aria-labelledby="gift-heading" className={css.section} data-no-print="">
      <h2 id="gift-heading" className={css.heading}>
        Gift this article
      </h2>
      <p>Anyone with a gift link can read this article in full, without an account or a subscription.</p>
      <div role="status">
        {url ? <p>Your gift link is ready. Copy it and send it to anyone.</p> : null}
        {error ? <p className={forms.formMessage}>{error}</p> : null}
        <p>{giftsLeftText(left)}</p>
      </div>
      {url ? <GiftLink key={url} url={url} copyable={hydrated && left > 0} /> : null}
      {left > 0 ? (
        <fetcher.Form
          method="post"
          action={GIFT_FORM_ACTION}
          onSubmit={(event) => {
            // Once this form is live, it calls the service API (the link shows in place); before
            // that, the browser posts the plain form and the page comes back with the link.
            event.preventDefault();
            fetcher.submit(event.currentTarget, { method: "post", action: GIFT_API });
          }}
        >
          <input type="hidden" name="url" value={articleUrl} />
          <button type="submit" className={primaryButton} disabled={fetcher.state !== "idle"}>
            Gift this article
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}

function GiftLink({ url, copyable }: { url: string; copyable: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => setCopied(true),
      (error: unknown) => console.error("The gift link could not be copied:", error),
    );
  return (
    <div className={forms.field}>
      <label htmlFor="gift-url" className={forms.label}>
        Gift link
      </label>
      <div className={css.linkRow}>
        <input id="gift-url" className={forms.input} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        {copyable ? (
          <button type="button" className={forms.secondaryButton} onClick={copy}>
            Copy link
          </button>
        ) : null}
      </div>
      <p role="status" className={forms.hint}>
        {copied ? "Link copied." : ""}
      </p>
    </div>
  );
}
