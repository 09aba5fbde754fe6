export { closeDb, db } from "~/server/db";
export { config } from "~/server/config";
