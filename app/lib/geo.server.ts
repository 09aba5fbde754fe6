import { geo, isDomestic } from "../../server/adapters/geo";
import { clientIp } from "../../server/client-ip";
import { config } from "./db.server";

/** Whether the reader is in the US or Canada, which decides the registration opt-in default. */
export async function isDomesticVisitor(request: Request): Promise<boolean> {
  return isDomestic(await geo().countryOf(request, clientIp(request, config().CLIENT_IP_HEADER)));
}
