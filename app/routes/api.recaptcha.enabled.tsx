import { captcha } from "~/server/adapters/captcha";
import { recaptchaEnabled } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /api/recaptcha/enabled (spec 7). Clients that cannot reach it assume captcha is on. */
const route = apiRoute(serve(recaptchaEnabled, async () => apiJson({ enabled: captcha().enabled })));

export const loader = route.loader;
export const action = route.action;
