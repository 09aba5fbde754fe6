import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { RESET_SENT } from "~/app/lib/accounts/messages";
import type { ModalScreen } from "~/app/lib/accounts/modal-screens";
import type { Region } from "~/server/adapters/geo";
import type { action as forgotPasswordAction } from "~/app/routes/forgot-password";
import type { action as profileAction, loader as profileLoader } from "~/app/routes/my-account";
import type { action as registerAction, loader as registerLoader } from "~/app/routes/register";
import type { action as signInAction } from "~/app/routes/sign-in";
import { ForgotPasswordForm } from "./account/ForgotPasswordForm";
import { ProfileForm } from "./account/ProfileForm";
import { RegistrationForm } from "./account/RegistrationForm";
import { SignInForm } from "./account/SignInForm";
import * as css from "./AuthModal.css";
import * as forms from "./forms/forms.css";

/**
 * Spec §9: the forgot-password confirmation stays 7 s (other confirmations 2 s); then the dialog
 * closes itself. Its own close time (5 s in the spec) would take the confirmation away sooner
 * (ADR 056).
 */
const RESET_SENT_CONFIRMATION_MS = 7000;

export interface ScreenProps {
  screen: ModalScreen;
  redirectTo: string;
  /** Registration succeeded: move on to profile settings. */
  onRegistered: () => void;
  /** The reset link was sent: the form is gone, focus goes back to the title. */
  onSent: () => void;
  /** The work of the screen is done: close the modal. */
  onDone: () => void;
}

/**
 * The modal's screens: the account pages' forms, posted with fetchers to the same route
 * actions. Loaded on the first opening, so pages that never open the modal do not carry the
 * forms' code.
 */
export default function AuthModalScreen({ screen, redirectTo, onRegistered, onSent, onDone }: ScreenProps) {
  switch (screen) {
    case "sign-in":
      return <SignInScreen redirectTo={redirectTo} />;
    case "registration":
      return <RegistrationScreen redirectTo={redirectTo} onRegistered={onRegistered} />;
    case "forgot-password":
      return <ForgotPasswordScreen onSent={onSent} onDone={onDone} />;
    case "profile_settings":
      return <ProfileScreen onSaved={onDone} />;
  }
}

function SignInScreen({ redirectTo }: { redirectTo: string }) {
  // Success redirects to redirectTo (this page): Remix navigates there and loaders revalidate.
  const fetcher = useFetcher<typeof signInAction>();
  const data = fetcher.data;
  return (
    <SignInForm redirectTo={redirectTo} result={data?.result} credentials={Boolean(data && "credentials" in data)} fetcher={fetcher} />
  );
}

function RegistrationScreen({ redirectTo, onRegistered }: { redirectTo: string; onRegistered: () => void }) {
  const [region, setRegion] = useState<Region>();
  const fetcher = useFetcher<typeof registerAction>();
  const registered = Boolean(fetcher.data && "registered" in fetcher.data);
  useEffect(() => {
    if (registered) onRegistered();
  }, [registered, onRegistered]);
  const data = fetcher.data;
  return (
    <>
      <p>
        Registration is free. Already have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}>Sign in</Link>.
      </p>
      {region === undefined ? (
        <RegionLookup redirectTo={redirectTo} onResult={setRegion} />
      ) : (
        <RegistrationForm
          redirectTo={redirectTo}
          region={region}
          result={data && "result" in data ? data.result : undefined}
          fetcher={fetcher}
        />
      )}
    </>
  );
}

/**
 * Asks the registration page's loader for the reader's region (the opt-in's default, wording and
 * consent note), then goes away, taking its fetcher with it: a fetcher still holding that loader's
 * data would be revalidated after registering, and the loader sends signed-in readers away.
 */
function RegionLookup({ redirectTo, onResult }: { redirectTo: string; onResult: (region: Region) => void }) {
  const page = useFetcher<typeof registerLoader>();
  const { load } = page;
  const source = `/register?redirectTo=${encodeURIComponent(redirectTo)}`;
  useEffect(() => {
    load(source);
  }, [load, source]);
  const region = page.data?.region;
  useEffect(() => {
    if (region !== undefined) onResult(region);
  }, [region, onResult]);
  return <p className={css.loading}>Loading…</p>;
}

function ForgotPasswordScreen({ onSent, onDone }: { onSent: () => void; onDone: () => void }) {
  const fetcher = useFetcher<typeof forgotPasswordAction>();
  const data = fetcher.data;
  const sent = Boolean(data && "sent" in data);
  useEffect(() => {
    if (!sent) return;
    // The form (and the focused button) is gone: focus goes back to the title.
    onSent();
    const timer = window.setTimeout(onDone, RESET_SENT_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [sent, onSent, onDone]);
  return (
    <>
      <div role="status">{sent ? <p className={forms.success}>{RESET_SENT}</p> : null}</div>
      {sent ? null : <ForgotPasswordForm result={data && "result" in data ? data.result : undefined} fetcher={fetcher} />}
    </>
  );
}

function ProfileScreen({ onSaved }: { onSaved: () => void }) {
  // The account page's loader gives the saved answers (and, for a guest, redirects to sign in).
  const account = useFetcher<typeof profileLoader>();
  const fetcher = useFetcher<typeof profileAction>();
  const { load } = account;
  useEffect(() => {
    load("/my-account");
  }, [load]);
  const saved = Boolean(fetcher.data && "saved" in fetcher.data);
  useEffect(() => {
    if (saved) onSaved();
  }, [saved, onSaved]);
  const data = fetcher.data;
  if (!account.data) return <p className={css.loading}>Loading…</p>;
  return <ProfileForm profile={account.data.profile} result={data && "result" in data ? data.result : undefined} fetcher={fetcher} />;
}
