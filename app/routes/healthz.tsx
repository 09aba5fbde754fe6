import { withSecurityHeaders } from "~/app/lib/http/responses.server";

/** For load balancers and orchestrators: the process is up and answering (nothing else is asked). */
export const loader = withSecurityHeaders(function loader() {
  return new Response("ok\n", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
});
