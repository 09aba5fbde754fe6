/** A service form's id on the reader's page, from its intent and what it acts on; its fields' ids start with it. */
export function serviceFormId(intent: string, target = ""): string {
  const tail = target.replace(/[^A-Za-z0-9_-]/g, "-");
  return tail ? `${intent}-${tail}` : intent;
}
