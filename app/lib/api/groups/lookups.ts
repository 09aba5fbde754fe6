import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";

// Public lookups the pages make while a reader types or chooses (spec 7).

export const suggestTerm = z.object({ term: z.string().max(200).optional() });

export const autoSuggest = endpoint({
  method: "get",
  operationId: "autoSuggest",
  path: "/service/search/auto-suggest",
  summary: "Up to 6 titles and 3 topics for what a reader has typed (nothing below 3 characters).",
  tag: "Search",
  access: "public",
  query: suggestTerm,
  answers: {
    200: {
      description: "The suggestions.",
      schema: z.object({
        records: z.array(z.object({ title: z.string(), link: z.string(), contentType: z.string() })).max(6),
        subjects: z.array(z.object({ name: z.string(), link: z.string() })).max(3),
      }),
    },
  },
});

export const stateProvince = endpoint({
  method: "get",
  operationId: "getStatesProvinces",
  path: "/service/commerce/state-province/{country}",
  summary: "The states or provinces of a country (ISO 3166 code), for an address form.",
  tag: "Commerce",
  access: "public",
  params: z.object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "Please enter a two-letter country code.")
      .transform((c) => c.toUpperCase()),
  }),
  answers: {
    200: {
      description: "The country's regions.",
      schema: z.object({ country: z.string(), regions: z.array(z.object({ code: z.string(), name: z.string() })) }),
    },
    404: { description: "No such country.", schema: apiErrorSchema },
  },
});

export const endpoints = [autoSuggest, stateProvince];
