import { Meta } from "@remix-run/react";
import { useContext } from "react";
import { UNSAFE_DataRouterStateContext as RouterStateContext } from "react-router-dom";
import { FORM_FAILED } from "~/app/lib/forms/meta";

/** A conform submission that failed, or an action's own `failed: true`. */
function failed(actionData: unknown): boolean {
  const data = actionData as { result?: { status?: string }; failed?: boolean } | undefined;
  return data?.result?.status === "error" || data?.failed === true;
}

/**
 * Remix's <Meta>, except that a route whose form post just failed sees FORM_FAILED in its
 * data, so its title can start "Error: " (GOV.UK pattern). Meta functions are not given
 * action data, and a reader without JS only learns of the failure from the new page.
 */
export function DocumentMeta() {
  const state = useContext(RouterStateContext);
  const actionData = state?.actionData;
  if (!state || !actionData || !Object.values(actionData).some(failed)) return <Meta />;
  const loaderData = { ...state.loaderData };
  for (const [routeId, value] of Object.entries(actionData)) {
    if (failed(value)) loaderData[routeId] = { ...(loaderData[routeId] as object | undefined), [FORM_FAILED]: true };
  }
  return (
    <RouterStateContext.Provider value={{ ...state, loaderData }}>
      <Meta />
    </RouterStateContext.Provider>
  );
}
