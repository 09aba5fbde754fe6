import { Form, Link } from "@remix-run/react";
import { useReturnPath } from "~/app/lib/accounts/return-path";
import { useRootData } from "~/app/lib/http/root-data";
import { Disclosure } from "./Disclosure";
import * as css from "./layout.css";
import * as controls from "~/app/components/controls.css";
import { useHydrated } from "./useHydrated";

interface UserMenuProps {
  /** Where signing in or out comes back to; this page (or where it leads, ../lib/return-path.ts) when not given. */
  returnTo?: string;
  /** In the header's row, where a signed-in reader's links fold into a flyout once JS runs. */
  inRow?: boolean;
}

/**
 * Sign-in and registration links for guests. Once signed in: the reader's name, My Library,
 * Following, the account and "Log out"; in the header's row with JS, the name opens a flyout
 * with the rest.
 */
export function UserMenu({ returnTo, inRow = false }: UserMenuProps) {
  const root = useRootData();
  const hydrated = useHydrated();
  const here = useReturnPath();
  const back = encodeURIComponent(returnTo ?? here);
  if (!root?.user) {
    return (
      <>
        <Link to="/subscriptions" className={css.subscribeLink}>
          Subscribe
        </Link>
        <Link to={`/sign-in?redirectTo=${back}`} rel="nofollow" data-modal="sign-in">
          Sign In
        </Link>
        <Link to={`/register?redirectTo=${back}`} rel="nofollow" data-modal="registration">
          Register
        </Link>
      </>
    );
  }
  const caption = root.subscriber?.caption;
  const accountName = `My account: ${root.user.name}${caption ? `, ${caption} subscriber` : ""}`;
  const name = (
    <>
      {root.user.name}
      {caption ? <span className={css.caption}> {caption}</span> : null}
    </>
  );
  const logOut = (
    <Form method="post" action={`/logout?return=${back}`} className={css.inlineForm}>
      <button type="submit" className={controls.linkButton}>
        Log out
      </button>
    </Form>
  );
  const subscribe = root.subscriber ? null : (
    <Link to="/subscriptions" className={css.subscribeLink}>
      Subscribe
    </Link>
  );
  if (inRow && hydrated) {
    return (
      <>
        {subscribe}
        <Disclosure
          id="account-menu"
          label={
            <>
              {name}
              <Chevron />
            </>
          }
          ariaLabel={accountName}
          className={{ holder: css.accountHolder, button: css.accountToggle, panel: css.accountPanel }}
        >
          <ul className={css.accountLinks}>
            <li>
              <Link to="/my-library">My Library</Link>
            </li>
            <li>
              <FollowingLink unread={root.user.unreadFollowing} />
            </li>
            <li>
              <Link to="/my-account">My account</Link>
            </li>
            <li>{logOut}</li>
          </ul>
        </Disclosure>
      </>
    );
  }
  return (
    <>
      {subscribe}
      <Link to="/my-library">My Library</Link>
      <FollowingLink unread={root.user.unreadFollowing} />
      <Link to="/my-account" aria-label={accountName}>
        {name}
      </Link>
      {logOut}
    </>
  );
}

/** The following stream, with the number of new articles in followed topics. */
function FollowingLink({ unread }: { unread: number }) {
  return (
    <Link to="/my-library/topics" data-unread-following={unread}>
      Following
      {unread > 0 ? (
        <span className={css.caption}>
          {" "}
          {unread}
          <span className="visually-hidden"> new</span>
        </span>
      ) : null}
    </Link>
  );
}

function Chevron() {
  return (
    <svg className={css.chevron} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
