import { Form, useNavigation, type FetcherWithComponents } from "@remix-run/react";

/**
 * What an account form is sent with: absent on its own page (a <Form>, so it works without
 * JS), or the sign-in modal's fetcher (`fetcher.Form`, posting to the same route action).
 */
export type FormFetcher = Pick<FetcherWithComponents<unknown>, "Form" | "state">;

/** The name and value of the hidden field that tells an action the form came from the modal. */
export const VIA_FIELD = "via";
export const VIA_MODAL = "modal";

/**
 * The form element to render, whether its submission is under way (a page navigation to
 * `action`, or the fetcher's), and the hidden "via=modal" field when sent from the modal.
 */
export function useFormHost(fetcher: FormFetcher | undefined, action: string) {
  const navigation = useNavigation();
  const pending = fetcher ? fetcher.state !== "idle" : navigation.state !== "idle" && navigation.formAction?.startsWith(action) === true;
  const FormElement: FormFetcher["Form"] = fetcher ? fetcher.Form : Form;
  const viaField = fetcher ? <input type="hidden" name={VIA_FIELD} value={VIA_MODAL} /> : null;
  return { FormElement, pending, viaField };
}

/** Whether a posted form came from the modal (so the action answers data, not a redirect). */
export function fromModal(form: FormData): boolean {
  return form.get(VIA_FIELD) === VIA_MODAL;
}
