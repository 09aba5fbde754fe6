import { Link } from "@remix-run/react";

/** The spec's prompt for guests who try to save, follow or share; both links come back to `redirectTo`. */
export function SignInPrompt({ redirectTo, className }: { redirectTo: string; className?: string }) {
  const back = encodeURIComponent(redirectTo);
  return (
    <p className={className}>
      To access this feature, please{" "}
      <Link to={`/sign-in?redirectTo=${back}`} rel="nofollow" data-modal="sign-in">
        SIGN IN
      </Link>{" "}
      or{" "}
      <Link to={`/register?redirectTo=${back}`} rel="nofollow" data-modal="registration">
        REGISTER
      </Link>
    </p>
  );
}
