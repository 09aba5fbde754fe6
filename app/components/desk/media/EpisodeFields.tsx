import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Shell, TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { EPISODE_TYPE_NAMES, EPISODE_TYPES } from "~/shared/media-vocabulary";

interface EpisodeFieldsMeta {
  title: FieldMetadata<string | undefined>;
  description: FieldMetadata<string | undefined>;
  pubDate: FieldMetadata<string | undefined>;
  season: FieldMetadata<number | undefined>;
  episode: FieldMetadata<number | undefined>;
  episodeType: FieldMetadata<string | undefined>;
  /** Text or a number: the schema reads either. */
  durationSeconds: FieldMetadata<unknown>;
}

/** A podcast episode's fields, for a new episode and for one being edited (ADR 083). */
export function EpisodeFields({ fields, numbersNote }: { fields: EpisodeFieldsMeta; numbersNote?: string }) {
  const { key, ...typeProps } = getSelectProps(fields.episodeType);
  return (
    <>
      <TextField meta={fields.title} label="Title" autoComplete="off" />
      <TextAreaField meta={fields.description} label="Description" rows={6} hint="Shown on the episode's page and in podcast apps." />
      <TextField meta={fields.pubDate} label="Publication date" autoComplete="off" width="medium" hint="YYYY-MM-DD, such as 2026-03-10." />
      <TextField
        meta={fields.season as unknown as FieldMetadata<string | undefined>}
        label="Season"
        autoComplete="off"
        inputMode="numeric"
        width="short"
        hint={numbersNote}
      />
      <TextField
        meta={fields.episode as unknown as FieldMetadata<string | undefined>}
        label="Episode number"
        autoComplete="off"
        inputMode="numeric"
        width="short"
        hint="Within its season."
      />
      <Shell meta={fields.episodeType} label="Type">
        <select key={key} {...typeProps} className={forms.input}>
          {EPISODE_TYPES.map((type) => (
            <option key={type} value={type}>
              {EPISODE_TYPE_NAMES[type]}
            </option>
          ))}
        </select>
      </Shell>
      <TextField
        meta={fields.durationSeconds as FieldMetadata<string | undefined>}
        label="Length"
        autoComplete="off"
        width="medium"
        hint="Minutes and seconds (34:10), or hours too (1:02:03). Uploading the MP3 sets it from the file."
      />
    </>
  );
}
