import type { AccountProblem } from "~/app/lib/accounts/flows.server";
import { apiError } from "./handler.server";

/**
 * An account flow's problem as a JSON error: `fields` when it belongs to a form field (renamed to
 * the endpoint's own field name where the spec's differs), and the spec's markers `tries_left`
 * and `lockout_duration`, and Retry-After on a 429.
 */
export function accountProblem(problem: AccountProblem, rename: Record<string, string> = {}): Response {
  const extra: Record<string, unknown> = {};
  if (problem.field) extra.fields = { [rename[problem.field] ?? problem.field]: [problem.message] };
  if (problem.triesLeft !== undefined) extra.tries_left = problem.triesLeft;
  if (problem.lockoutSeconds !== undefined) extra.lockout_duration = problem.lockoutSeconds;
  const headers = problem.retryAfterSeconds !== undefined ? { "Retry-After": String(Math.ceil(problem.retryAfterSeconds)) } : undefined;
  return apiError(problem.status, problem.code, problem.message, extra, headers);
}
