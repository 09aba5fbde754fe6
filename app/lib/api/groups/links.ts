import { z } from "zod";
import { REQUIRED } from "~/app/lib/forms/messages";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";

// Short links to pages of this site (spec 7, integration/url/shorten).

/** The longest address taken, as the site's redirect check takes (app/lib/http/redirects.ts). */
export const MAX_URL_LENGTH = 2048;

export const NOT_THIS_SITE = "Please enter the address of a page on this site.";

export const shorten = endpoint({
  method: "post",
  operationId: "shortenUrl",
  path: "/service/integration/url/shorten",
  summary:
    "A short link (/s/{code}) to a page of this site: `url` is an address on this site or a path. The same page always gets the same link. " +
    "Limited per client address.",
  tag: "Links",
  access: "public",
  body: z.object({
    url: z
      .string({ required_error: REQUIRED, invalid_type_error: NOT_THIS_SITE })
      .trim()
      .min(1, REQUIRED)
      .max(MAX_URL_LENGTH, `The address must be at most ${MAX_URL_LENGTH} characters.`),
  }),
  answers: {
    200: { description: "The short link, on the site's own address.", schema: z.object({ shortUrl: z.string().url() }) },
    400: {
      description: "The input is not valid: `fields.url` says why (another site's address, another scheme, or not an address at all).",
      schema: apiErrorSchema,
    },
    429: {
      description: "Too many short links from this client address (code too_many_requests); Retry-After says when to try again.",
      schema: apiErrorSchema,
      headers: { "Retry-After": "Seconds to wait." },
    },
  },
});

export const endpoints = [shorten];
