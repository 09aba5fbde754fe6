import * as cheerio from "cheerio";
import { connect, type Database } from "~/server/db/connection";
import { ApiContract } from "./api-contract";
import { startBuiltServer, type RunningServer } from "./server";
import { isolatedConnection } from "./test-db";

/** The production build on a database of its own, with the API contract it publishes, for one test file. */
export interface ApiSite {
  server: RunningServer;
  contract: ApiContract;
  /** The server's own database, to check what a call stored. */
  database: Database;
  stop: () => Promise<void>;
}

export async function startApiSite(label: string, env: Record<string, string>): Promise<ApiSite> {
  const connection = await isolatedConnection(label);
  const server = await startBuiltServer(env, "production", connection).catch(async (error: unknown) => {
    await connection.drop();
    throw error;
  });
  const database = connect(connection);
  const contract = await ApiContract.load(server.url);
  return {
    server,
    contract,
    database,
    async stop() {
      await database.destroy();
      await server.stop();
      await connection.drop();
    },
  };
}

/** The articles /the-latest lists: each one's page, and the id its save link carries (through sign-up for a guest). */
export async function latestArticles(siteUrl: string): Promise<{ path: string; id: string }[]> {
  const $ = cheerio.load(await (await fetch(`${siteUrl}/the-latest`)).text());
  return $("main ol article")
    .map((_, a) => {
      const save = new URL($(a).find("a[href*='save']").attr("href")!, siteUrl);
      const target = save.pathname === "/register" ? new URL(save.searchParams.get("redirectTo")!, siteUrl) : save;
      return { path: $(a).find("h3 a").attr("href")!, id: target.searchParams.get("id")! };
    })
    .get();
}
