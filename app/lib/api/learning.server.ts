import { coursePaths } from "~/server/learning/courses";
import { mindstoneToken } from "~/server/learning/mindstone";
import { secrets } from "~/server/secrets";
import { config, db } from "~/app/lib/context/db.server";
import type * as learning from "./groups/learning";
import { apiJson, type Call } from "./handler.server";

// The learning group's handlers (app/lib/api/groups/learning.ts).

/** POST /api/hmm/course/link: slug to address, on the site's public address. */
export async function courseLinksAnswer({ body }: Call<typeof learning.courseLinks>): Promise<Response> {
  const paths = await coursePaths(await db(), body.slugs);
  const siteUrl = config().siteUrl;
  return apiJson(Object.fromEntries(body.slugs.map((slug) => [slug, paths.has(slug) ? siteUrl + paths.get(slug)! : null])));
}

/** GET /api/mindstone/userToken: a subscriber's token (the endpoint lets only subscribers through). */
export async function mindstoneTokenAnswer({ user }: Call<typeof learning.mindstoneUserToken>): Promise<Response> {
  return apiJson({ mindstoneJWT: mindstoneToken(user.id, secrets().mindstoneJwtSecret, new Date()) });
}
