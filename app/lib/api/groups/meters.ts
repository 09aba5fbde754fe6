import { z } from "zod";
import { endpoint } from "~/app/lib/api/contract";

// The reader's meters (spec 7: user/quota, user/ascend-quota).

export const quotaSchema = z.object({
  limit: z.number().int(),
  count: z.number().int(),
  remaining: z.number().int(),
  /** False for a subscriber, whom no meter stops. */
  metered: z.boolean(),
});

export const quota = endpoint({
  method: "get",
  operationId: "getQuota",
  path: "/service/user/quota",
  summary: "The reader's article meter this month: a guest's by their visitor cookie, a registered reader's by their account.",
  tag: "User",
  access: "public",
  answers: { 200: { description: "The meter.", schema: quotaSchema } },
});

export const ascendQuota = endpoint({
  method: "get",
  operationId: "getAscendQuota",
  path: "/service/user/ascend-quota",
  summary: "A guest's Ascend meter this month (registered readers have one meter, as user/quota gives).",
  tag: "User",
  access: "public",
  answers: { 200: { description: "The meter.", schema: quotaSchema } },
});

export const endpoints = [quota, ascendQuota];
