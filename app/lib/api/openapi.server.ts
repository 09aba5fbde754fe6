import { extendZodWithOpenApi, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ENDPOINTS } from "./catalogue";
import { registry } from "./contract";

// The generator reads parameters' metadata through zod's prototype, which this adds to.
extendZodWithOpenApi(z);

let document: object | undefined;

/** The service API's OpenAPI 3.1 document, generated from the endpoints' schemas once per process. */
export function openApiDocument(siteUrl: string, siteName: string): object {
  document ??= new OpenApiGeneratorV31(registry(ENDPOINTS).definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: `${siteName} service API`,
      version: "1.0.0",
      // The site's own terms: its footer reserves all rights, and the API is the site's.
      license: { name: "Proprietary: all rights reserved", identifier: "LicenseRef-Proprietary" },
      description:
        "The JSON calls behind the site's pages, on the same rules: a signed-in reader is known by the session cookie, state-changing calls from another site are refused (403), and every error is `{ code, message }`. The Admin API (tag `Admin API`, under /desk/api/) is for staff tools instead: it takes a staff API key as `Authorization: Bearer …`, never a cookie.",
    },
    servers: [{ url: siteUrl }],
  });
  return document;
}
