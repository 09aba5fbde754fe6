import type { AppLoadContext } from "@remix-run/node";
import { geo, isDomestic } from "../../server/adapters/geo";
import { clientAddress } from "./client-address.server";

/** Whether the reader is in the US or Canada, which decides the registration opt-in default. */
export async function isDomesticVisitor(request: Request, context: AppLoadContext | undefined): Promise<boolean> {
  return isDomestic(await geo().countryOf(request, clientAddress(request, context)));
}
