import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LibraryView } from "~/app/components/library/LibraryView";
import { libraryMeta } from "~/app/lib/library/meta";
import { libraryAction, loadLibrary } from "~/app/lib/library/page.server";

/** One folder; a slug no folder of the reader's has shows All Folders. */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  loadLibrary({ request, context }, (params.folderSlug ?? "").slice(0, 80));
export const action = ({ request, context }: ActionFunctionArgs) => libraryAction({ request, context });
export const meta: MetaFunction<typeof loader> = libraryMeta;
export default LibraryView;
