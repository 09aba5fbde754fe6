import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import type { action as saveAction, loader as saveLoader } from "~/app/routes/my-library_.save";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import { useDismiss } from "~/app/components/useDismiss";
import { FolderChecklist } from "./FolderChecklist";
import * as css from "./library.css";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";

/** Spec timings: a confirmation stays 2 s; a save with no answer after 5 s has failed. */
const CONFIRMATION_MS = 2000;
const FAILURE_MS = 5000;
const SAVE_FAILED_LATE = "Save operation failed!";

/** The save form beside the Save link: folders to tick and a new folder (SaveControl loads this lazily). */
export default function SaveFlyout({ savePath, title, onClose }: { savePath: string; title: string; onClose: () => void }) {
  const loader = useFetcher<typeof saveLoader>();
  const saver = useFetcher<typeof saveAction>();
  const panel = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const [late, setLate] = useState(false);

  const load = loader.load;
  useEffect(() => {
    load(savePath);
  }, [load, savePath]);

  useDismiss(panel, onClose);

  useEffect(() => {
    if (loader.data) panel.current?.querySelector<HTMLElement>("input, button")?.focus();
  }, [loader.data]);

  const saved = saver.state === "idle" && saver.data && "saved" in saver.data;
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(onClose, CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [saved, onClose]);

  useEffect(() => {
    if (saver.state !== "submitting") return setLate(false);
    const timer = setTimeout(() => setLate(true), FAILURE_MS);
    return () => clearTimeout(timer);
  }, [saver.state]);

  const data = loader.data;
  const errors = saver.data && "newFolderError" in saver.data ? saver.data : null;
  return (
    <div ref={panel} className={css.flyout} role="dialog" aria-labelledby={headingId}>
      <h2 id={headingId} className={css.flyoutTitle}>
        Save “{title}”
      </h2>
      {saved ? (
        <p role="status" className={css.notice}>
          Saved!
        </p>
      ) : !data ? (
        <p role="status">Loading your folders…</p>
      ) : (
        <saver.Form method="post" action={savePath}>
          <ViaFetcherField />
          <input type="hidden" name="type" value={data.ref.type} />
          <input type="hidden" name="id" value={data.ref.id} />
          <input type="hidden" name="redirectTo" value={data.back} />
          <FolderChecklist folders={data.folders} checked={data.savedIn} legend="Save into these folders (optional)" />
          <div className={forms.field}>
            <label className={forms.label} htmlFor={`${headingId}-new`}>
              Or create a new folder
            </label>
            {errors?.newFolderError ? (
              <p id={`${headingId}-error`} className={forms.fieldError}>
                {errors.newFolderError}
              </p>
            ) : null}
            <input
              id={`${headingId}-new`}
              name="newFolder"
              className={forms.input}
              maxLength={60}
              aria-invalid={errors?.newFolderError ? true : undefined}
              aria-describedby={errors?.newFolderError ? `${headingId}-error` : undefined}
            />
          </div>
          {errors?.formError || late ? (
            <p className={forms.formMessage} role="alert">
              {late ? SAVE_FAILED_LATE : errors?.formError}
            </p>
          ) : null}
          <div className={forms.actions}>
            <button type="submit" className={primaryButton} disabled={saver.state !== "idle"}>
              Save
            </button>
          </div>
        </saver.Form>
      )}
      <button type="button" className={css.flyoutClose} onClick={onClose}>
        Close<span className="visually-hidden"> the save panel</span>
      </button>
    </div>
  );
}
