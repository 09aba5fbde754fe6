import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LibraryView } from "~/app/components/library/LibraryView";
import { libraryMeta } from "~/app/lib/library-meta";
import { libraryAction, loadLibrary } from "~/app/lib/library-page.server";

export const loader = ({ request }: LoaderFunctionArgs) => loadLibrary(request, null);
export const action = ({ request }: ActionFunctionArgs) => libraryAction(request);
export const meta: MetaFunction<typeof loader> = libraryMeta;
export default LibraryView;
