import type { FieldMetadata } from "@conform-to/react";
import * as forms from "~/app/components/forms/forms.css";
import { ROLE_NAMES, ROLES, type Role } from "~/shared/staff-roles";
import * as css from "./desk.css";

const DESCRIPTIONS: Record<Role, string> = {
  admin: "Everything, including staff and the audit log.",
  editor: "Editorial: articles and the catalogue of content.",
  store: "The store: products, orders and promotions.",
  service: "Customer service: readers' accounts and orders.",
};

/** The roles as checkboxes; the first box carries the field's id, so the error summary's link lands on it. */
export function RolesFieldset({ meta, checked }: { meta: FieldMetadata<string[] | undefined>; checked: readonly string[] }) {
  const error = meta.errors?.[0];
  const submitted = meta.initialValue;
  const initial = Array.isArray(submitted) ? submitted : typeof submitted === "string" ? [submitted] : checked;
  return (
    <fieldset className={error ? `${css.fieldset} ${forms.withError}` : css.fieldset} aria-describedby={error ? meta.errorId : undefined}>
      <legend>Roles</legend>
      {error ? (
        <p id={meta.errorId} className={forms.fieldError}>
          {error}
        </p>
      ) : null}
      {ROLES.map((role, index) => {
        const id = index === 0 ? meta.id : `${meta.id}-${role}`;
        return (
          <div key={role} className={forms.checkbox}>
            <input
              type="checkbox"
              id={id}
              name={meta.name}
              value={role}
              defaultChecked={initial.includes(role)}
              aria-describedby={`${id}-hint`}
            />
            <div className={forms.field}>
              <label htmlFor={id}>{ROLE_NAMES[role]}</label>
              <span id={`${id}-hint`} className={forms.hint}>
                {DESCRIPTIONS[role]}
              </span>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
