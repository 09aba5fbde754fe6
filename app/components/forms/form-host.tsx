import { Form, useNavigation, type FetcherWithComponents } from "@remix-run/react";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";

/**
 * What an account form is sent with: absent on its own page (a <Form>, so it works without
 * JS), or the sign-in modal's fetcher (`fetcher.Form`, posting to the same route action).
 */
export type FormFetcher = Pick<FetcherWithComponents<unknown>, "Form" | "state">;

/**
 * The form element to render, whether its submission is under way (a page navigation to
 * `action`, or the fetcher's), and the hidden via=fetcher field when sent from the modal.
 */
export function useFormHost(fetcher: FormFetcher | undefined, action: string) {
  const navigation = useNavigation();
  const pending = fetcher ? fetcher.state !== "idle" : navigation.state !== "idle" && navigation.formAction?.startsWith(action) === true;
  const FormElement: FormFetcher["Form"] = fetcher ? fetcher.Form : Form;
  const viaField = fetcher ? <ViaFetcherField /> : null;
  return { FormElement, pending, viaField };
}
