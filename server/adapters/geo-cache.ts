// The geo lookup's answers per address, in the database so that every instance shares them.
import type { CountryCache } from "./geo";
import type { Database } from "~/server/db/connection";

export function databaseCountryCache(db: Database): CountryCache {
  return {
    async read(address, now) {
      const row = await db
        .selectFrom("geo_country")
        .select("country")
        .where("address", "=", address)
        .where("expires_at", ">", now.toISOString())
        .executeTakeFirst();
      return row ? { country: row.country } : undefined;
    },
    async write(address, country, expiresAt) {
      const expires_at = expiresAt.toISOString();
      await db
        .insertInto("geo_country")
        .values({ address, country, expires_at })
        .onConflict((oc) => oc.column("address").doUpdateSet({ country, expires_at }))
        .execute();
    },
  };
}
