// One name for "this form was posted by an in-page fetcher" (a modal, a flyout, a button that
// updates in place): the form carries via=fetcher and its action answers with data for the
// fetcher. Without it (no JavaScript, or the form on its own page) the action redirects.

export const VIA_FIELD = "via";
export const VIA_FETCHER = "fetcher";

/** Whether a posted form came from a fetcher, so its action answers data instead of redirecting. */
export function sentByFetcher(form: FormData): boolean {
  return form.get(VIA_FIELD) === VIA_FETCHER;
}

/** The hidden field a fetcher's form sends. */
export function ViaFetcherField() {
  return <input type="hidden" name={VIA_FIELD} value={VIA_FETCHER} />;
}
