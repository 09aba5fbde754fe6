// The desk's roles (ADR 072): named here for the forms on both sides; what each may do is the
// domain's rule, in server/desk/roles.ts.

export const ROLES = ["admin", "editor", "store", "service"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_NAMES: Record<Role, string> = {
  admin: "Admin",
  editor: "Editor",
  store: "Store manager",
  service: "Customer service",
};

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);
