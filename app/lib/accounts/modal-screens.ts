// The sign-in modal's screens (spec: sign-in modal). Pure, so it is unit-tested on its own.

export const MODAL_SCREENS = ["sign-in", "registration", "forgot-password", "profile_settings"] as const;

export type ModalScreen = (typeof MODAL_SCREENS)[number];

/** The screen the modal opens on when none is asked for. */
export const DEFAULT_MODAL_SCREEN: ModalScreen = "registration";

/** Each screen's title, which also labels the dialog. */
export const MODAL_TITLES: Record<ModalScreen, string> = {
  "sign-in": "Sign in to your account",
  registration: "Create an account",
  "forgot-password": "Reset your password",
  profile_settings: "Profile settings",
};

/** The screen to show: the default for none (absent or empty), the one named if valid; throws otherwise. */
export function modalScreen(name?: string): ModalScreen {
  if (name === undefined || name === "") return DEFAULT_MODAL_SCREEN;
  if ((MODAL_SCREENS as readonly string[]).includes(name)) return name as ModalScreen;
  throw new Error(`${JSON.stringify(name)} is not a valid screen`);
}

/** The pages whose links open the modal instead (with JS), by path. */
const SCREEN_PAGES: Record<string, ModalScreen> = {
  "/sign-in": "sign-in",
  "/register": "registration",
  "/forgot-password": "forgot-password",
};

/** The screen a link to this path opens, or undefined for a path the modal does not stand in for. */
export function screenForPath(pathname: string): ModalScreen | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return Object.hasOwn(SCREEN_PAGES, path) ? SCREEN_PAGES[path] : undefined;
}

/**
 * Pages that carry an account form of their own: there, links outside the modal navigate as
 * usual rather than open a second copy of the same form over the page.
 */
const ACCOUNT_FORM_PAGES = new Set([
  "/sign-in",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/my-account",
  "/subscriber-registration",
  "/confirm-email",
]);

export function isAccountFormPage(pathname: string): boolean {
  return ACCOUNT_FORM_PAGES.has(pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
}
