import * as forms from "~/app/components/forms/forms.css";
import * as css from "./desk.css";

/** A new enrolment link, shown this once (only its hash is stored). */
export function EnrolmentLinkNotice({ email, url, hours }: { email: string; url: string; hours: number }) {
  return (
    <div className={forms.success} role="status">
      <p>
        Send this link to {email}. It sets up their second factor, works once, and expires in {hours} hours; it will not be shown again.
      </p>
      <p className={css.code}>{url}</p>
    </div>
  );
}
