import { Link, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useRootData } from "~/app/lib/http/root-data";
import * as css from "./layout.css";

// Kept here rather than with the account messages, which every page would then load.
const REGISTRATION_SUCCESS = "Thank you for registering. You are now signed in.";

const CLOSE_AFTER_SCROLL = 250;

/**
 * The confirmation after registering (registration=success in the address). Its close control
 * is a link to the same page without the flag, so it works without JS; with JS it also
 * closes once the reader scrolls more than 250 px.
 */
export function RegistrationBanner() {
  const root = useRootData();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const [open, setOpen] = useState(true);
  useEffect(() => {
    setOpen(true);
    const onScroll = () => {
      if (window.scrollY > CLOSE_AFTER_SCROLL) setOpen(false);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [location.key]);
  if (!open) return null;
  params.delete("registration");
  const rest = params.toString();
  return (
    <div className={css.banner} role="status">
      <p>
        {REGISTRATION_SUCCESS} Welcome, {root?.user?.firstName}.
      </p>
      <Link
        to={`${location.pathname}${rest ? `?${rest}` : ""}`}
        preventScrollReset
        onClick={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
      >
        Close<span className="visually-hidden"> the registration message</span>
      </Link>
    </div>
  );
}
