import { useLocation } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FocusEvent } from "react";
import { isAccountFormPage, MODAL_TITLES, modalScreen, screenForPath, type ModalScreen } from "~/app/lib/accounts/modal-screens";
import { useReturnPath } from "~/app/lib/accounts/return-path";
import { useRootData } from "~/app/lib/http/root-data";
import { media } from "~/app/styles/theme.css";
import * as css from "./AuthModal.css";

const AuthModalScreen = lazy(() => import("./AuthModalScreens"));

const TITLE_ID = "auth-modal-title";

/**
 * The screen a click asks for: an element marked data-modal="screen", else a same-site link to
 * /sign-in, /register or /forgot-password. Plain clicks only (not a new tab or window).
 */
function requestedScreen(event: MouseEvent): { screen: ModalScreen; element: HTMLElement } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return null;
  const marked = target.closest<HTMLElement>("[data-modal]");
  if (marked) {
    try {
      return { screen: modalScreen(marked.dataset.modal), element: marked };
    } catch (error) {
      // A mistyped screen name: report it, and let the element do what it does without JS.
      console.error(error);
      return null;
    }
  }
  const link = target.closest<HTMLAnchorElement>("a[href]");
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return null;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const screen = screenForPath(url.pathname);
  return screen ? { screen, element: link } : null;
}

function isTextEntry(element: EventTarget): boolean {
  return element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;
}

/**
 * The sign-in modal (spec). With JS, clicks on links to the account pages (and on elements
 * marked data-modal) open it in place; without JS those links stay links to the pages, which
 * work on their own. Its screens reuse the pages' forms, posted with fetchers to the same
 * route actions. Mounted once, in the root layout.
 */
export function AuthModal() {
  const [screen, setScreen] = useState<ModalScreen | null>(null);
  const [inputFocused, setInputFocused] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const location = useLocation();
  const root = useRootData();
  const signedIn = Boolean(root?.user);
  const redirectTo = useReturnPath();

  const close = useCallback(() => {
    const dialog = dialogRef.current;
    if (dialog?.open) dialog.close();
    else setScreen(null);
  }, []);

  // The dialog's close event (Close button, Escape, or any of the outcomes below).
  const onClosed = useCallback(() => {
    setScreen(null);
    setInputFocused(false);
    document.documentElement.classList.remove(css.scrollLocked);
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
  }, []);

  // Links and data-modal elements open the modal instead of navigating. Capture phase, so this
  // runs before the router's own link handling (which leaves prevented clicks alone).
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const dialog = dialogRef.current;
      const inside = Boolean(dialog?.open && event.target instanceof Node && dialog.contains(event.target));
      // On a page that has the account form itself, its links lead to the other pages as usual.
      if (!inside && isAccountFormPage(window.location.pathname)) return;
      const request = requestedScreen(event);
      if (!request) return;
      event.preventDefault();
      if (!inside) opener.current = request.element;
      setScreen(request.screen);
    };
    window.addEventListener("click", onClick, true);
    return () => window.removeEventListener("click", onClick, true);
  }, []);

  // Open as a modal (focus moves in and stays; Escape closes), lock the page's scrolling, and
  // put focus on the title whenever a screen opens, so it is announced.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!screen || !dialog) return;
    if (!dialog.open) {
      dialog.showModal();
      document.documentElement.classList.add(css.scrollLocked);
    }
    titleRef.current?.focus();
  }, [screen]);

  // Unlock scrolling if the modal goes away without closing (e.g. the layout unmounts).
  useEffect(() => () => document.documentElement.classList.remove(css.scrollLocked), []);

  // Any navigation (a sign-in reloading the page, a link out of the modal) closes it.
  const lastLocationKey = useRef(location.key);
  useEffect(() => {
    if (lastLocationKey.current === location.key) return;
    lastLocationKey.current = location.key;
    close();
  }, [location.key, close]);

  // Signed in: the sign-in screen's work is done.
  useEffect(() => {
    if (screen === "sign-in" && signedIn) close();
  }, [screen, signedIn, close]);

  const focusTitle = useCallback(() => titleRef.current?.focus(), []);
  const toProfile = useCallback(() => setScreen("profile_settings"), []);

  // Spec: on mobile, a class while an input is focused.
  const onFocus = (event: FocusEvent<HTMLDialogElement>) => {
    if (isTextEntry(event.target)) setInputFocused(window.matchMedia(media.narrow).matches);
  };
  const onBlur = (event: FocusEvent<HTMLDialogElement>) => {
    if (isTextEntry(event.target)) setInputFocused(false);
  };

  if (!screen) return null;
  return (
    <dialog
      ref={dialogRef}
      className={inputFocused ? `${css.dialog} ${css.inputFocused}` : css.dialog}
      aria-labelledby={TITLE_ID}
      data-screen={screen}
      onClose={onClosed}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <div className={css.header}>
        <h2 id={TITLE_ID} className={css.title} ref={titleRef} tabIndex={-1}>
          {MODAL_TITLES[screen]}
        </h2>
        <button type="button" className={css.closeButton} onClick={close}>
          Close
        </button>
      </div>
      <div className={css.body}>
        <Suspense fallback={<p className={css.loading}>Loading…</p>}>
          <AuthModalScreen
            key={screen}
            screen={screen}
            redirectTo={redirectTo}
            onRegistered={toProfile}
            onSent={focusTitle}
            onDone={close}
          />
        </Suspense>
      </div>
    </dialog>
  );
}
