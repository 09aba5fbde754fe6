import { z } from "zod";
import { REQUIRED } from "~/app/lib/forms/messages";
import { endpoint } from "~/app/lib/api/contract";

// Learning (spec 7, "Articles"): course links by slug, and the token a subscriber takes to the
// Mindstone learning platform.

const TAG = "Learning";

const MAX_COURSE_SLUGS = 50;
const COURSE_SLUG = "A course slug is lower-case letters, digits and hyphens.";

const courseSlug = z
  .string({ invalid_type_error: COURSE_SLUG })
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, COURSE_SLUG)
  .max(80, COURSE_SLUG);

export const courseLinks = endpoint({
  method: "post",
  operationId: "getCourseLinks",
  path: "/api/hmm/course/link",
  summary:
    "The address of each course named by slug. A course is a learning path through one of the site's reading lists; its address is that list on the reading lists page.",
  tag: TAG,
  access: "public",
  body: z.object({
    slugs: z
      .union([courseSlug, z.array(courseSlug)], { required_error: REQUIRED, invalid_type_error: COURSE_SLUG })
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .pipe(z.array(z.string()).min(1, REQUIRED).max(MAX_COURSE_SLUGS, `Please ask for at most ${MAX_COURSE_SLUGS} courses at once.`))
      .describe("The courses' slugs (a form may repeat the field)."),
  }),
  answers: {
    200: {
      description: "Each slug asked for, and its course's address on this site (null when no course has that slug).",
      schema: z.record(z.string().url().nullable()),
    },
  },
});

export const mindstoneUserToken = endpoint({
  method: "get",
  operationId: "getMindstoneUserToken",
  path: "/api/mindstone/userToken",
  summary:
    "A token that signs the subscriber in to the Mindstone learning platform: a JWT (HS256, signed with MINDSTONE_JWT_SECRET) whose `sub` is the reader's id, good for an hour from `iat`.",
  tag: TAG,
  access: "subscriber",
  answers: { 200: { description: "The token.", schema: z.object({ mindstoneJWT: z.string() }) } },
});

export const endpoints = [courseLinks, mindstoneUserToken];
