import { mailer } from "~/server/adapters/mail";
import {
  followAsReader,
  followedTopics,
  topicForFilter,
  unfollowAllNewsletters,
  unfollowAsReader,
  unfollow,
  type FollowKind,
} from "~/server/library/follows";
import { createFolder, deleteFolder, listFolders, MAX_FOLDERS, ownFolder, ownFolderByName } from "~/server/library/folders";
import {
  addItemsToFolders,
  discardItems,
  ownLibraryItem,
  removeItemsFromFolders,
  saveItem as saveToLibrary,
  savedItem,
} from "~/server/library/items";
import { unsubscribeLinkTarget } from "~/server/newsletters/unsubscribe-token";
import { secrets } from "~/server/secrets";
import { shareableItem, shareByEmail } from "~/server/share/email";
import { folderChoices } from "~/shared/folder-choices";
import { FOLDER_EXISTS_MESSAGE, FOLDER_NAME_MESSAGE } from "~/shared/folder-names";
import { UNKNOWN_FOLLOW_TARGET } from "~/shared/follow-refusals";
import { libraryFolderPath } from "~/shared/urls";
import { config, db } from "~/app/lib/context/db.server";
import { SHARE_DAILY_LIMIT } from "~/app/lib/content/share-form";
import { libraryNotice } from "~/app/lib/library/page.server";
import type { Call } from "./handler.server";
import { apiError, apiJson, invalidFields } from "./handler.server";
import type * as library from "./groups/library";
import { FOLLOW_TYPES } from "./groups/library";

// The library group's handlers (app/lib/api/groups/library.ts): each calls the functions the
// library, follow, newsletter and share pages call, and answers JSON.

const NO_SUCH_ITEM = "No such item or folder in your library.";

/** POST (add) or DELETE (take out) /service/user/lists/bulk-update. */
export async function bulkUpdate({ request, user, body }: Call<typeof library.bulkAdd>): Promise<Response> {
  const adding = request.method === "POST";
  const database = await db();
  const n = adding
    ? await addItemsToFolders(database, user.id, [body.id], body.listIds)
    : await removeItemsFromFolders(database, user.id, [body.id], body.listIds);
  if (n === undefined) return apiError(404, "not_found", NO_SUCH_ITEM);
  return apiJson({ id: body.id, listIds: [...new Set(body.listIds)], message: libraryNotice(adding ? "added" : "organized", n)! });
}

export async function createList({ user, params, body }: Call<typeof library.createList>): Promise<Response> {
  const result = await createFolder(await db(), user.id, { name: params.name, description: body.description });
  if (result.ok) return apiJson({ folder: result.folder, message: libraryNotice("folder-created", 0)! }, { status: 201 });
  if (result.error === "invalid-name") return invalidFields({ name: [FOLDER_NAME_MESSAGE] });
  if (result.error === "exists")
    return apiError(409, "folder_exists", FOLDER_EXISTS_MESSAGE, { fields: { name: [FOLDER_EXISTS_MESSAGE] } });
  if (result.error === "too-many") return apiError(400, "too_many_folders", `You can keep up to ${MAX_FOLDERS} folders.`);
  throw new Error(`create folder: ${result.error}`);
}

export async function deleteList({ user, params }: Call<typeof library.deleteList>): Promise<Response> {
  const database = await db();
  const folder = await ownFolderByName(database, user.id, params.name);
  const result = folder ? await deleteFolder(database, user.id, folder.id) : undefined;
  if (!result || (!result.ok && result.error === "missing")) return apiError(404, "not_found", "You have no folder with this name.");
  if (!result.ok) return apiError(403, "read_only", "This folder cannot be deleted.");
  return apiJson({ folder: result.folder, message: libraryNotice("folder-deleted", 0)! });
}

/** POST /service/user/saves: the save page's save. */
export async function saveItem({ user, body }: Call<typeof library.saveItem>): Promise<Response> {
  const database = await db();
  const ref = { type: body.type, id: body.id };
  if (!(await saveToLibrary(database, user.id, ref, body.listIds))) return apiError(404, "not_found", "Nothing to save here.");
  const saved = (await savedItem(database, user.id, ref))!;
  return apiJson({ id: saved.id, listIds: saved.folderIds, message: libraryNotice("saved", 0)! });
}

export async function deleteSave({ user, body }: Call<typeof library.deleteSave>): Promise<Response> {
  const n = await discardItems(await db(), user.id, [body.id]);
  if (n === undefined) return apiError(404, "not_found", NO_SUCH_ITEM);
  if (n === 0) return apiError(403, "read_only", "A gifted article stays in your library.");
  return apiJson({ id: body.id, message: libraryNotice("discarded", n)! });
}

/** GET /service/user/saves/{id}/lists: the folders the save and organize pages offer the item, ticked where it is. */
export async function itemLists({ user, params }: Call<typeof library.itemLists>): Promise<Response> {
  const database = await db();
  const item = await ownLibraryItem(database, user.id, params.id);
  if (!item) return apiError(404, "not_found", NO_SUCH_ITEM);
  return apiJson({ id: item.id, lists: folderChoices(await listFolders(database, user.id), item.folderIds) });
}

export async function listUrl({ user, params }: Call<typeof library.listUrl>): Promise<Response> {
  const folder = await ownFolder(await db(), user.id, params.id);
  if (!folder) return apiError(404, "not_found", "You have no such folder.");
  return apiJson({ id: folder.id, listurl: config().siteUrl + libraryFolderPath(folder.slug) });
}

/** GET /service/user/lists: the reader's folders, as the library lists them. */
export async function getLists({ user }: Call<typeof library.getLists>): Promise<Response> {
  return apiJson({ lists: await listFolders(await db(), user.id) });
}

/** DELETE /service/user/lists: each folder as the library page deletes one, all or none. */
export async function deleteLists({ user }: Call<typeof library.deleteLists>): Promise<Response> {
  const outcome = await (await db()).transaction().execute(async (tx) => {
    let deleted = 0;
    let kept = 0;
    for (const folder of await listFolders(tx, user.id)) {
      const result = await deleteFolder(tx, user.id, folder.id);
      if (result.ok) deleted += 1;
      else if (result.error === "read-only") kept += 1;
    }
    return { deleted, kept };
  });
  return apiJson(outcome);
}

/** Follows (POST) or stops following (DELETE) one target, as POST /follow does. */
async function setFollowing(wanted: boolean, userId: string, kind: FollowKind, name: string) {
  const database = await db();
  const done = wanted ? await followAsReader(database, userId, kind, name) : await unfollowAsReader(database, userId, kind, name);
  if (!done.ok)
    return {
      refusal: done.error === "refused" ? apiError(403, "refused", done.message) : apiError(404, "not_found", UNKNOWN_FOLLOW_TARGET),
    };
  return { target: done.target, following: wanted };
}

export async function follow({ request, user, body }: Call<typeof library.followPost>): Promise<Response> {
  const done = await setFollowing(request.method === "POST", user.id, FOLLOW_TYPES[body.type], body.name);
  if (done.refusal) return done.refusal;
  return apiJson({ name: done.target.target, type: body.type, title: done.target.name, following: done.following });
}

export async function topicList({ user }: Call<typeof library.topicList>): Promise<Response> {
  const topics = await followedTopics(await db(), user.id);
  return apiJson(topics.map((t) => ({ id: t.id, name: t.name })));
}

/** DELETE /service/topic: a followed topic found by name as the topics page's delete finds it, unfollowed as POST /follow does. */
export async function topicDelete({ user, body }: Call<typeof library.topicDelete>): Promise<Response> {
  const topic = topicForFilter(await followedTopics(await db(), user.id), body.name);
  if (!topic) return apiError(404, "not_found", "You do not follow a topic of this name.");
  const done = await setFollowing(false, user.id, "topic", String(topic.id));
  if (done.refusal) return done.refusal;
  return apiJson({ id: topic.id, name: topic.name, following: false });
}

/** A newsletter (user/subscribe, newsletters/subscribe) or marketing campaign subscription, POST or DELETE. */
export function subscription(kind: "newsletter" | "campaign") {
  return async ({ request, user, body }: Call<typeof library.userSubscribe>): Promise<Response> => {
    const done = await setFollowing(request.method === "POST", user.id, kind, body.name);
    if (done.refusal) return done.refusal;
    return apiJson({ name: done.target.target, title: done.target.name, subscribed: done.following });
  };
}

export async function unsubscribeAll({ user }: Call<typeof library.unsubscribeAll>): Promise<Response> {
  const n = await unfollowAllNewsletters(await db(), user.id);
  return apiJson({ unsubscribed: n, message: "You are not subscribed to any newsletters." });
}

/** By an unsubscribe link's token (anyone holding it, as /newsletters/unsubscribe), or the signed-in reader by name. */
export async function newslettersUnsubscribe({ user, body }: Call<typeof library.newslettersUnsubscribe>): Promise<Response> {
  if (body.token !== undefined) {
    const database = await db();
    const found = await unsubscribeLinkTarget(database, secrets().sessionSecret, body.token);
    if (!found || (body.name !== undefined && body.name !== found.slug))
      return apiError(400, "invalid_token", "This unsubscribe link is not valid.", {
        fields: { token: ["This unsubscribe link is not valid."] },
      });
    await unfollow(database, found.userId, "newsletter", found.slug);
    return apiJson({ name: found.slug, title: found.name, subscribed: false });
  }
  if (!user) return apiError(401, "not_signed_in", "Please sign in to use this service.");
  if (body.name === undefined)
    return apiError(400, "invalid_input", "Please correct the errors below.", { fields: { name: ["This field is required."] } });
  const done = await setFollowing(false, user.id, "newsletter", body.name);
  if (done.refusal) return done.refusal;
  return apiJson({ name: done.target.target, title: done.target.name, subscribed: false });
}

export async function share({ user, body }: Call<typeof library.share>): Promise<Response> {
  const database = await db();
  const found = await shareableItem(database, { type: body.type, id: body.id }, user.id);
  if (!found.ok && found.error === "missing") return apiError(404, "not_found", "Nothing to share here.");
  if (!found.ok) return apiError(403, "subscribers_only", "Only subscribers may share this video.");
  const sent = await shareByEmail(database, mailer(), {
    userId: user.id,
    senderName: `${user.firstName} ${user.lastName}`,
    from: body.from,
    to: body.sharedWith,
    message: body.description,
    item: found.item,
    siteUrl: config().siteUrl,
  });
  if (!sent.ok) return apiError(429, "rate_limited", SHARE_DAILY_LIMIT, {}, { "Retry-After": String(sent.retryAfterSeconds) });
  return apiJson({ sent: true, recipients: body.sharedWith.length, message: "Shared via e-mail" });
}
