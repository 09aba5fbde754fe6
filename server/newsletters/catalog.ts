import type { Database } from "~/server/db/connection";

export interface Newsletter {
  slug: string;
  name: string;
  frequency: string;
  description: string;
  subscriberOnly: boolean;
}

export interface MarketingCampaign {
  id: string;
  name: string;
  description: string;
}

export async function listNewsletters(db: Database): Promise<Newsletter[]> {
  const rows = await db.selectFrom("newsletter").selectAll().orderBy("id").execute();
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    frequency: r.frequency,
    description: r.description,
    subscriberOnly: r.subscriber_only === 1,
  }));
}

export async function newsletterBySlug(db: Database, slug: string): Promise<Newsletter | undefined> {
  return (await listNewsletters(db)).find((n) => n.slug === slug);
}

export async function listCampaigns(db: Database): Promise<MarketingCampaign[]> {
  return db.selectFrom("marketing_campaign").select(["id", "name", "description"]).orderBy("name").execute();
}
