// npm run staff -- add --email ada@example.org --role admin [--role editor …]
//   Gives an existing reader account staff roles and prints a single-use enrolment link (valid 24
//   hours) for them to set up their second factor. The account must exist: staff register at
//   /register like any reader, then an admin (or this command) gives them roles.
// npm run staff -- add-key --name "Newsroom sync" --role editor [--role …]
//   Makes a staff API key for the Admin API (ADR 074) and prints it, alone on the last line. It is
//   shown this once: only its hash is stored.
import { commandSiteUrl } from "~/server/site-address";
import { parseArgs } from "node:util";
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import type { Database } from "~/server/db/connection";
import { createApiKey } from "./api-keys";
import { COMMAND_LINE } from "./audit";
import { isRole, ROLE_NAMES, ROLES, type Role } from "~/shared/staff-roles";
import { ENROLMENT_LINK_HOURS, enrolmentUrl } from "./second-factor";
import { addStaff } from "./staff";

const ROLE_ARGS = `--role <${ROLES.join("|")}> [--role …]`;
const USAGE = `usage: npm run staff -- add --email <address> ${ROLE_ARGS}
       npm run staff -- add-key --name <name> ${ROLE_ARGS}`;

class UsageError extends Error {}

type Command = { command: "add"; email: string; roles: Role[] } | { command: "add-key"; name: string; roles: Role[] };

function parse(argv: string[]): Command {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string", multiple: true } },
  });
  const [command] = positionals;
  if (positionals.length !== 1 || (command !== "add" && command !== "add-key")) throw new UsageError(USAGE);
  const roles = values.role ?? [];
  if (roles.length === 0) throw new UsageError(`--role is required.\n${USAGE}`);
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length > 0) throw new UsageError(`Unknown role: ${unknown.join(", ")}. Roles are ${ROLES.join(", ")}.`);
  if (command === "add") {
    if (!values.email) throw new UsageError(`--email is required.\n${USAGE}`);
    return { command, email: values.email, roles: roles as Role[] };
  }
  const name = values.name?.trim();
  if (!name) throw new UsageError(`--name is required: say what will use the key.\n${USAGE}`);
  if (name.length > 100) throw new UsageError("--name is at most 100 characters.");
  return { command, name, roles: roles as Role[] };
}

async function add(db: Database, siteUrl: string, email: string, roles: Role[]): Promise<void> {
  const added = await addStaff(db, COMMAND_LINE, email, roles, new Date());
  if (!added.ok) {
    console.error(
      added.reason === "no-account"
        ? `No reader account has the address ${email}. They register at ${siteUrl}/register first; then run this again.`
        : `The account ${email} is not open (restricted or closed), so it cannot be given a role.`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(`${added.user.email} now holds: ${added.roles.map((role) => ROLE_NAMES[role]).join(", ")}.`);
  console.log(`Send them this link to set up their second factor. It works once, within ${ENROLMENT_LINK_HOURS} hours:`);
  console.log(enrolmentUrl(siteUrl, added.token));
}

async function addKey(db: Database, name: string, roles: Role[]): Promise<void> {
  const { key, apiKey } = await createApiKey(db, COMMAND_LINE, name, roles, new Date());
  console.log(`API key "${apiKey.name}" (${apiKey.prefix}) acts as: ${apiKey.roles.map((role) => ROLE_NAMES[role]).join(", ")}.`);
  console.log("Send it as `Authorization: Bearer <key>` to /desk/api/. It is shown this once; an admin revokes it at /desk/api-keys:");
  console.log(key);
}

async function main() {
  let command: Command;
  try {
    command = parse(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    if (command.command === "add") await add(db, commandSiteUrl(c), command.email, command.roles);
    else await addKey(db, command.name, command.roles);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
