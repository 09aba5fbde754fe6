import { captcha } from "../../server/adapters/captcha";

/** Spec: GET /api/recaptcha/enabled. Clients that cannot reach it assume captcha is on. */
export function loader() {
  return Response.json({ enabled: captcha().enabled }, { headers: { "Cache-Control": "no-store" } });
}
