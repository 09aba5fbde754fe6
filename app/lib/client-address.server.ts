import type { AppLoadContext } from "@remix-run/node";
import { clientIp } from "~/server/http/client-ip";
import { config } from "./db.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The connection's own remote address, given by the production server (server/http). */
    clientAddress?: string;
  }
}

/**
 * The reader's network address: from the header our proxy sets when CLIENT_IP_HEADER is
 * configured, else the connection's remote address that the production server passes in the
 * load context. Null under `remix-serve` without a proxy header, which passes no address.
 */
export function clientAddress(request: Request, context: AppLoadContext | undefined): string | null {
  const header = config().CLIENT_IP_HEADER;
  if (header) return clientIp(request, header);
  return context?.clientAddress ?? null;
}
