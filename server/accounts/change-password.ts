import type { Database } from "../db/connection";
import { verifyPassword } from "./passwords";
import { endOtherSessions } from "./sessions";
import { findCredentials, setPassword, type User } from "./users";

/** Sets a new password after checking the current one; the reader's other sessions end. */
export async function changePassword(
  db: Database,
  user: User,
  currentPassword: string,
  newPassword: string,
  keepSessionToken: string,
): Promise<"changed" | "wrong-current"> {
  const account = await findCredentials(db, user.email);
  if (!account || !(await verifyPassword(currentPassword, account.passwordHash))) return "wrong-current";
  await setPassword(db, user.id, newPassword);
  await endOtherSessions(db, user.id, keepSessionToken);
  return "changed";
}
