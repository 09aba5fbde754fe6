import { profileAttributes, saveProfileAttributesFlow } from "~/app/lib/accounts/flows.server";
import { attributes, saveAttributes } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET and POST /service/user/attributes (spec): the profile's attributes, saved as my account saves them. */
const route = apiRoute(
  serve(attributes, ({ user }) => Promise.resolve(apiJson(profileAttributes(user)))),
  serve(saveAttributes, async ({ user, body }) => apiJson(await saveProfileAttributesFlow(user, body))),
);

export const loader = route.loader;
export const action = route.action;
