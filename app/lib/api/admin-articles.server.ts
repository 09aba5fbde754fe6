import { apiArticleDetail } from "~/server/desk/api-articles";
import type { DeskArticle, FieldErrors, PublishResult, SaveResult } from "~/server/desk/articles";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import type { AppLoadContext } from "@remix-run/node";
import { apiError, apiJson, conflictAnswer, invalidFields, notFoundAnswer } from "./handler.server";

// The Admin API's article answers (ADR 074, 079): the editorial domain's results as JSON.

export const deskDb = (call: { request: Request; context: AppLoadContext }) => requestContext(call).db();

export function articleAnswer(article: DeskArticle, init: { status?: number; headers?: HeadersInit } = {}): Response {
  return apiJson(apiArticleDetail(article, config().siteUrl), init);
}

export const articleNotFound = () => notFoundAnswer("article");

export const fieldErrors = (errors: FieldErrors) => invalidFields(errors as Record<string, string[]>);

/** A save's or a state change's answer: the article, or why nothing was written. */
export function resultAnswer(result: SaveResult | PublishResult): Response {
  if (result.ok) return articleAnswer(result.article);
  switch (result.reason) {
    case "missing":
      return articleNotFound();
    case "invalid":
      return fieldErrors(result.fieldErrors);
    case "conflict": {
      const { current, by, at } = result.conflict;
      return conflictAnswer("article", apiArticleDetail(current, config().siteUrl), by, at);
    }
    case "state":
      return apiError(409, "wrong_state", result.message, { status: result.status });
  }
}
