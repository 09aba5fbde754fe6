import { captcha } from "../../server/adapters/captcha";
import { withSecurityHeaders } from "../lib/responses.server";

/** Spec: GET /api/recaptcha/enabled. Clients that cannot reach it assume captcha is on. */
export const loader = withSecurityHeaders(function loader() {
  return Response.json({ enabled: captcha().enabled }, { headers: { "Cache-Control": "no-store" } });
});
