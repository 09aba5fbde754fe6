import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { LibraryView } from "../components/library/LibraryView";
import { formPageMeta } from "../lib/form-meta";
import { libraryAction, loadLibrary } from "../lib/library-page.server";

/** One folder; a slug no folder of the reader's has shows All Folders. */
export const loader = ({ request, params }: LoaderFunctionArgs) => loadLibrary(request, (params.folderSlug ?? "").slice(0, 80));
export const action = ({ request }: ActionFunctionArgs) => libraryAction(request);
export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, {
    title: args.data?.active ? `${args.data.active.name}: My Library` : "My Library",
    description: "Your saved articles and videos, in folders of your own.",
    path: "/my-library",
  });
export default LibraryView;
