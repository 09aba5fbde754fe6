// npm run staff -- add --email ada@example.org --role admin [--role editor …]
// Gives an existing reader account staff roles and prints a single-use enrolment link (valid 24
// hours) for them to set up their second factor. The account must exist: staff register at
// /register like any reader, then an admin (or this command) gives them roles.
import { parseArgs } from "node:util";
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import { COMMAND_LINE } from "./audit";
import { isRole, ROLE_NAMES, ROLES, type Role } from "~/shared/staff-roles";
import { ENROLMENT_LINK_HOURS, enrolmentUrl } from "./second-factor";
import { addStaff } from "./staff";

const USAGE = `usage: npm run staff -- add --email <address> --role <${ROLES.join("|")}> [--role …]`;

class UsageError extends Error {}

function parse(argv: string[]): { email: string; roles: Role[] } {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, role: { type: "string", multiple: true } },
  });
  if (positionals.length !== 1 || positionals[0] !== "add") throw new UsageError(USAGE);
  if (!values.email) throw new UsageError(`--email is required.\n${USAGE}`);
  const roles = values.role ?? [];
  if (roles.length === 0) throw new UsageError(`--role is required.\n${USAGE}`);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length > 0) throw new UsageError(`Unknown role: ${unknown.join(", ")}. Roles are ${ROLES.join(", ")}.`);
  return { email: values.email, roles: roles as Role[] };
}

async function main() {
  let args: { email: string; roles: Role[] };
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    const added = await addStaff(db, COMMAND_LINE, args.email, args.roles, new Date());
    if (!added.ok) {
      console.error(
        added.reason === "no-account"
          ? `No reader account has the address ${args.email}. They register at ${c.siteUrl}/register first; then run this again.`
          : `The account ${args.email} is not open (restricted or closed), so it cannot be given a role.`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(`${added.user.email} now holds: ${added.roles.map((role) => ROLE_NAMES[role]).join(", ")}.`);
    console.log(`Send them this link to set up their second factor. It works once, within ${ENROLMENT_LINK_HOURS} hours:`);
    console.log(enrolmentUrl(c.siteUrl, added.token));
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
