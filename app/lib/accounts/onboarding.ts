import type { RootData } from "~/app/lib/http/root-data";

/**
 * Whether the onboarding message is due: a subscriber who has not dismissed it, on any page but
 * the subscription pages (the receipt comes first) and /welcome, which says the same.
 */
export function onboardingDue(root: RootData | undefined, pathname: string): boolean {
  const elsewhere = pathname === "/welcome" || pathname.startsWith("/subscriptions");
  return Boolean(!elsewhere && root?.subscriber && root.user && !root.dismissed.includes("onboarding"));
}
