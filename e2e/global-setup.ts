import { createTemplate } from "~/tests/helpers/template-db";

/** Migrates and seeds the run's template database once; each worker's site copies it. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const { remove } = await createTemplate();
  return remove;
}
