import { useFetcher, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Dismissible } from "~/server/readers/dismissals";
import { VIA_FETCHER, VIA_FIELD } from "~/app/lib/forms/via-fetcher";

/**
 * The close control of a one-time message: a form that remembers the dismissal on the server
 * and comes back to this page. With JS it posts through a fetcher and `onDismiss` hides the
 * message at once.
 */
export function DismissForm({
  item,
  className,
  onDismiss,
  children,
}: {
  item: Dismissible;
  className?: string;
  onDismiss?: () => void;
  children: ReactNode;
}) {
  const fetcher = useFetcher();
  const location = useLocation();
  return (
    <fetcher.Form
      method="post"
      action="/dismiss"
      onSubmit={(event) => {
        if (!onDismiss) return;
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        form.set(VIA_FIELD, VIA_FETCHER);
        fetcher.submit(form, { method: "post", action: "/dismiss" });
        onDismiss();
      }}
    >
      <input type="hidden" name="item" value={item} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" className={className}>
        {children}
      </button>
    </fetcher.Form>
  );
}
