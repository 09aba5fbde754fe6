import type { Endpoint } from "../contract";

// Short links to pages of this site (spec 7, integration/url/shorten).

export const endpoints: Endpoint[] = [];
