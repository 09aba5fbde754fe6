import type { Region } from "~/server/adapters/geo";
import { ForgotPasswordForm } from "./account/ForgotPasswordForm";
import { RegistrationForm } from "./account/RegistrationForm";
import { SignInForm } from "./account/SignInForm";

export type WallScreen = "registration" | "sign-in" | "forgot-password";

/**
 * The registration wall's form for its current screen. A chunk of its own (the forms bring the
 * form libraries), loaded only where a wall stands.
 */
export default function WallForm({
  screen,
  articleUrl,
  region,
  abTag,
}: {
  screen: WallScreen;
  articleUrl: string;
  region: Region;
  /** The wall's A/B tag: an account opened here is counted under it (ADR 090). */
  abTag: string;
}) {
  if (screen === "sign-in") return <SignInForm redirectTo={articleUrl} result={undefined} credentials={false} />;
  if (screen === "forgot-password") return <ForgotPasswordForm result={undefined} />;
  return <RegistrationForm redirectTo={articleUrl} region={region} result={undefined} wallTag={abTag} />;
}
