import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { UserStatus } from "~/server/db/schema";
import { hashPassword } from "./passwords";

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
  optIn: boolean;
  industry: string;
  jobTitle: string;
  companySize: string;
  status: UserStatus;
  createdAt: string;
  /** When a link mailed to the current address was last followed; null if never. */
  emailVerifiedAt: string | null;
}

export interface Profile {
  displayName: string;
  industry: string;
  jobTitle: string;
  companySize: string;
}

/** Addresses are compared without case or surrounding space. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The columns a User is made of (toUser), named with their table so that a join may select them too. */
export const userColumns = [
  "app_user.id",
  "app_user.email",
  "app_user.first_name",
  "app_user.last_name",
  "app_user.display_name",
  "app_user.opt_in",
  "app_user.industry",
  "app_user.job_title",
  "app_user.company_size",
  "app_user.status",
  "app_user.created_at",
  "app_user.email_verified_at",
] as const;

type Row = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  opt_in: number;
  industry: string;
  job_title: string;
  company_size: string;
  status: UserStatus;
  created_at: string;
  email_verified_at: string | null;
};

export function toUser(row: Row): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: row.display_name,
    optIn: Number(row.opt_in) === 1,
    industry: row.industry,
    jobTitle: row.job_title,
    companySize: row.company_size,
    status: row.status,
    createdAt: row.created_at,
    emailVerifiedAt: row.email_verified_at,
  };
}

export async function findUserById(db: Database, id: string): Promise<User | undefined> {
  const row = await db.selectFrom("app_user").select(userColumns).where("id", "=", id).executeTakeFirst();
  return row && toUser(row);
}

/** The user and their password hash, for sign-in. */
export async function findCredentials(db: Database, email: string): Promise<{ user: User; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom("app_user")
    .select([...userColumns, "password_hash"])
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function emailInUse(db: Database, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db.selectFrom("app_user").select("id").where("email", "=", normalizeEmail(email));
  if (exceptUserId) query = query.where("id", "!=", exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** Whether the publisher has blocked this address (exactly, or its whole domain). */
export async function isRestrictedAddress(db: Database, email: string): Promise<boolean> {
  const address = normalizeEmail(email);
  const domain = address.slice(address.lastIndexOf("@"));
  const row = await db.selectFrom("restricted_address").select("pattern").where("pattern", "in", [address, domain]).executeTakeFirst();
  return Boolean(row);
}

export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  optIn: boolean;
}

/** Inserts the account; answers undefined when the address is already taken (even by a racing insert). */
export async function insertUser(db: Database, input: NewUser, now = new Date()): Promise<User | undefined> {
  const passwordHash = await hashPassword(input.password);
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const inserted = await db
    .insertInto("app_user")
    .values({
      id,
      email: normalizeEmail(input.email),
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      password_hash: passwordHash,
      opt_in: input.optIn ? 1 : 0,
      created_at: at,
      updated_at: at,
      last_visit_at: at,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? findUserById(db, id) : undefined;
}

/** The profile's attributes (spec: industry, job title, company size), which a reader may update alone. */
export type ProfileAttributes = Pick<Profile, "industry" | "jobTitle" | "companySize">;

export async function updateProfileAttributes(
  db: Database,
  userId: string,
  attributes: ProfileAttributes,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable("app_user")
    .set({
      industry: attributes.industry,
      job_title: attributes.jobTitle,
      company_size: attributes.companySize,
      updated_at: now.toISOString(),
    })
    .where("id", "=", userId)
    .execute();
}

/** Saves the profile questions. The address changes only through a confirmed link (email-change.ts). */
export async function updateProfile(db: Database, userId: string, profile: Profile, now = new Date()): Promise<void> {
  await db
    .updateTable("app_user")
    .set({
      display_name: profile.displayName.trim(),
      industry: profile.industry,
      job_title: profile.jobTitle,
      company_size: profile.companySize,
      updated_at: now.toISOString(),
    })
    .where("id", "=", userId)
    .execute();
}

export async function setPassword(db: Database, userId: string, password: string, now = new Date()): Promise<void> {
  await db
    .updateTable("app_user")
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where("id", "=", userId)
    .execute();
}
