import type { Endpoint } from "../contract";

// Print subscribers and the subscription checkout (spec 7, "Auth and user").

export const endpoints: Endpoint[] = [];
