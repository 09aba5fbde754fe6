import type { Endpoint } from "./contract";
import * as lookups from "./groups/lookups";
import * as meters from "./groups/meters";

/** Every endpoint of the service API, as the OpenAPI document lists them. */
export const ENDPOINTS: readonly Endpoint[] = [...meters.endpoints, ...lookups.endpoints];
