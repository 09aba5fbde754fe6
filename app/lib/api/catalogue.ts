import type { Endpoint } from "./contract";
import * as admin from "./groups/admin";
import * as adminCatalogue from "./groups/admin-catalogue";
import * as adminIssues from "./groups/admin-issues";
import * as adminMedia from "./groups/admin-media";
import * as adminOperations from "./groups/admin-operations";
import * as adminReadingLists from "./groups/admin-reading-lists";
import * as authUser from "./groups/auth-user";
import * as cart from "./groups/cart";
import * as content from "./groups/content";
import * as learning from "./groups/learning";
import * as library from "./groups/library";
import * as links from "./groups/links";
import * as lookups from "./groups/lookups";
import * as meters from "./groups/meters";
import * as subscriber from "./groups/subscriber";

/** Every endpoint of the service API, as the OpenAPI document lists them. */
export const ENDPOINTS: readonly Endpoint[] = [
  ...meters.endpoints,
  ...authUser.endpoints,
  ...subscriber.endpoints,
  ...lookups.endpoints,
  ...cart.endpoints,
  ...library.endpoints,
  ...content.endpoints,
  ...learning.endpoints,
  ...links.endpoints,
  ...admin.endpoints,
  ...adminCatalogue.endpoints,
  ...adminReadingLists.endpoints,
  ...admin.imageEndpoints,
  ...adminIssues.endpoints,
  // Last: the fuzz run's seeds for the operations before stay as they were.
  ...adminMedia.endpoints,
  ...adminOperations.endpoints,
];
