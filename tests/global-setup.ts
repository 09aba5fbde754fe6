import { createTemplate } from "./helpers/template-db";

/** Migrates and seeds the run's template database once; every test file copies it. */
export default async function setup(): Promise<() => Promise<void>> {
  const { remove } = await createTemplate();
  return remove;
}
