import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LibraryView } from "~/app/components/library/LibraryView";
import { libraryMeta } from "~/app/lib/library-meta";
import { libraryAction, loadLibrary } from "~/app/lib/library-page.server";

/** One folder; a slug no folder of the reader's has shows All Folders. */
export const loader = ({ request, params }: LoaderFunctionArgs) => loadLibrary(request, (params.folderSlug ?? "").slice(0, 80));
export const action = ({ request }: ActionFunctionArgs) => libraryAction(request);
export const meta: MetaFunction<typeof loader> = libraryMeta;
export default LibraryView;
