import { Fragment } from "react";
import type { ExportValue } from "~/server/privacy/export";
import * as prose from "~/app/components/prose.css";
import * as css from "./personal-data.css";

/** "createdAt" → "Created at": the export's keys as the page labels them. */
export function fieldLabel(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One value of the export, whatever its shape: records as label and value, lists numbered. */
function Value({ value }: { value: ExportValue }) {
  if (value === null || value === "") return <span className={css.none}>none</span>;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  if (typeof value !== "object") return <>{String(value)}</>;
  if (Array.isArray(value))
    return value.length === 0 ? (
      <span className={css.none}>none</span>
    ) : (
      <ol className={css.list}>
        {value.map((entry, i) => (
          // The export's lists have no ids of their own; their order is fixed.
          <li key={i} className={css.item}>
            <Value value={entry} />
          </li>
        ))}
      </ol>
    );
  return (
    <dl className={css.record}>
      {Object.entries(value).map(([key, entry]) => (
        <Fragment key={key}>
          <dt className={css.term}>{fieldLabel(key)}</dt>
          <dd className={css.value}>
            <Value value={entry} />
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The reader's data, a section under each heading, in the order of the JSON file. */
export function PersonalData({ sections }: { sections: { key: string; title: string; value: ExportValue }[] }) {
  return (
    <>
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`data-${section.key}`} className={prose.section}>
          <h2 id={`data-${section.key}`}>{section.title}</h2>
          <Value value={section.value} />
        </section>
      ))}
    </>
  );
}
