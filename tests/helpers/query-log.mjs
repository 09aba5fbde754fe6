// Loaded into a test server's process (NODE_OPTIONS=--import): writes each query the server runs,
// with the id of the request it ran for, as a JSON line to the file QUERY_LOG names. The channel
// is server/db/connection.ts's QUERY_CHANNEL.
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";

const file = process.env.QUERY_LOG;
diagnostics.subscribe("meridian:db:query", (query) => fs.appendFileSync(file, `${JSON.stringify(query)}\n`));
