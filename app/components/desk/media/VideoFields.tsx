import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Checkbox, Shell, TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "../desk.css";

interface VideoFieldsMeta {
  title: FieldMetadata<string | undefined>;
  description: FieldMetadata<string | undefined>;
  topic: FieldMetadata<string | undefined>;
  /** Text or a number: the schema reads either. */
  tags: FieldMetadata<unknown>;
  /** Text or a number: the schema reads either. */
  durationSeconds: FieldMetadata<unknown>;
  published: FieldMetadata<string | undefined>;
  subscriberOnly: FieldMetadata<boolean | undefined>;
  playlists: FieldMetadata<string[] | undefined>;
}

/** A video's fields, for a new video and for one being edited (ADR 083). */
export function VideoFields({
  fields,
  topics,
  playlists,
  chosen,
}: {
  fields: VideoFieldsMeta;
  topics: string[];
  playlists: { slug: string; name: string }[];
  /** What the video is now: whether it is for subscribers and the playlists it is in. */
  chosen: { subscriberOnly: boolean; playlists: string[] };
}) {
  const { key, ...topicProps } = getSelectProps(fields.topic);
  // After a refused post, the playlists ticked in it; else those the video is in.
  const submitted = fields.playlists.initialValue;
  const ticked = submitted === undefined ? chosen.playlists : [submitted].flat();
  return (
    <>
      <TextField meta={fields.title} label="Title" autoComplete="off" />
      <TextAreaField meta={fields.description} label="Description" rows={6} hint="Shown under the video and to search engines." />
      <Shell meta={fields.topic} label="Topic">
        <select key={key} {...topicProps} className={forms.input}>
          <option value="">Choose a topic</option>
          {topics.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </Shell>
      <TextField
        meta={fields.tags as FieldMetadata<string | undefined>}
        label="Tags (optional)"
        autoComplete="off"
        hint="Separated by commas: warehousing, quality."
      />
      <TextField
        meta={fields.durationSeconds as FieldMetadata<string | undefined>}
        label="Length"
        autoComplete="off"
        width="medium"
        hint="Minutes and seconds (12:30), or hours too (1:02:03). Left empty, it is read from a WebM when you upload one."
      />
      <TextField
        meta={fields.published}
        label="Publication date"
        autoComplete="off"
        width="medium"
        hint="YYYY-MM-DD, such as 2026-03-10."
      />
      <Checkbox meta={fields.subscriberOnly} defaultChecked={chosen.subscriberOnly} hint="Others see the poster and an offer to subscribe.">
        For subscribers only
      </Checkbox>
      {playlists.length > 0 ? (
        <fieldset className={css.fieldset}>
          <legend>Playlists</legend>
          <p className={forms.hint}>A video joins a playlist at its end.</p>
          {playlists.map((p) => (
            <div key={p.slug} className={forms.checkbox}>
              <input
                type="checkbox"
                id={`${fields.playlists.id}-${p.slug}`}
                name={fields.playlists.name}
                value={p.slug}
                defaultChecked={ticked.includes(p.slug)}
              />
              <label htmlFor={`${fields.playlists.id}-${p.slug}`}>{p.name}</label>
            </div>
          ))}
          {fields.playlists.errors?.[0] ? <p className={forms.fieldError}>{fields.playlists.errors[0]}</p> : null}
        </fieldset>
      ) : null}
    </>
  );
}
