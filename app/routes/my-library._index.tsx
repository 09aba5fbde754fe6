import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LibraryView } from "~/app/components/library/LibraryView";
import { libraryMeta } from "~/app/lib/library/meta";
import { libraryAction, loadLibrary } from "~/app/lib/library/page.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadLibrary({ request, context }, null);
export const action = ({ request, context }: ActionFunctionArgs) => libraryAction({ request, context });
export const meta: MetaFunction<typeof loader> = libraryMeta;
export default LibraryView;
