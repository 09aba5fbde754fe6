import { Form } from "@remix-run/react";
import type { StoreChoices, StoreFilters, StoreOption } from "~/server/store/catalogue";
import { MAX_QUERY_LENGTH } from "~/shared/search-query";
import { STORE_SORT_NAMES, STORE_SORTS } from "~/shared/store-choices";
import * as controls from "~/app/components/controls.css";
import * as css from "./store-choices.css";

interface Props {
  filters: StoreFilters;
  choices: StoreChoices;
}

/**
 * The store's one form: keywords, product type, topic, format and order, sent as a plain GET to
 * /store, so that every choice is an address of its own, with or without JavaScript. It applies
 * on its button, not on each change: a keyboard's arrows change a closed select at every step.
 */
export function StoreChoicesForm({ filters, choices }: Props) {
  return (
    <Form method="get" action="/store" className={css.form} aria-label="Filter products">
      <label className={`${css.field} ${css.keywords}`}>
        Search the store
        <input
          type="search"
          name="q"
          className={css.input}
          defaultValue={choices.q}
          maxLength={MAX_QUERY_LENGTH}
          // A new address (a link, Back) shows its own choices.
          key={`q-${choices.q}`}
        />
      </label>
      <Choice name="type" label="Product type" all="All types" options={filters.types} chosen={choices.type} />
      <Choice name="topic" label="Topic" all="All topics" options={filters.topics} chosen={choices.topic} />
      <Choice name="format" label="Format" all="All formats" options={filters.formats} chosen={choices.format} />
      <label className={css.field}>
        Sort by
        <select name="sort" className={css.select} defaultValue={choices.sort} key={`sort-${choices.sort}`}>
          {STORE_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {STORE_SORT_NAMES[sort]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={`${controls.primaryButton} ${css.submit}`}>
        Show products
      </button>
    </Form>
  );
}

function Choice({
  name,
  label,
  all,
  options,
  chosen,
}: {
  name: string;
  label: string;
  all: string;
  options: StoreOption[];
  chosen: StoreOption | null;
}) {
  return (
    <label className={css.field}>
      {label}
      <select name={name} className={css.select} defaultValue={chosen?.slug ?? ""} key={`${name}-${chosen?.slug}`}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
