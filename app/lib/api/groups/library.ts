import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { bulkUpdateSchema, folderSchema } from "~/app/lib/library/library-forms";
import { emailShareSchema, shareRefSchema } from "~/app/lib/content/share-form";

// The reader's library and follows (spec 7, "Library and follows"): folders and saved items,
// following topics, newsletters and marketing campaigns, and sharing by e-mail. Each calls the
// functions the library, follow, newsletter and share pages call.

const TAG = "Library";
const error = (description: string) => ({ description, schema: apiErrorSchema });

export const folderAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  itemCount: z.number().int(),
});

const bulkAnswer = z.object({ id: z.string(), listIds: z.array(z.string()), message: z.string() });

export const bulkAdd = endpoint({
  method: "post",
  operationId: "addToFolders",
  path: "/service/user/lists/bulk-update",
  summary: "Adds a saved item (`id`) to the reader's folders (`listIds`).",
  tag: TAG,
  access: "reader",
  body: bulkUpdateSchema,
  answers: {
    200: { description: 'Added ("N item(s) added to folders").', schema: bulkAnswer },
    404: error("The item or a folder is not one of the reader's own (or is read-only); nothing changed."),
  },
});

export const bulkRemove = endpoint({
  method: "delete",
  operationId: "removeFromFolders",
  path: "/service/user/lists/bulk-update",
  summary: "Takes a saved item (`id`) out of the reader's folders (`listIds`); it stays in the library.",
  tag: TAG,
  access: "reader",
  body: bulkUpdateSchema,
  answers: {
    200: { description: 'Removed from those folders ("Folders Updated").', schema: bulkAnswer },
    404: error("The item or a folder is not one of the reader's own (or is read-only); nothing changed."),
  },
});

const folderName = z.object({ name: folderSchema.shape.name });
/** A new folder's name: server/library refuses one the rules do not allow, with the same message. */
const newFolderName = z.object({ name: z.string() });
const savedItemId = z.object({ id: bulkUpdateSchema.shape.id.describe("The saved item's id.") });
const folderId = z.object({ id: z.string().trim().min(1).max(64).describe("The folder's id.") });
const notOwnItem = error("No such item in the reader's library (another reader's item included).");

export const itemLists = endpoint({
  method: "get",
  operationId: "getItemFolders",
  path: "/service/user/saves/{id}/lists",
  summary:
    "The folders a saved item can go in and whether each holds it, as the save and organize pages show them (the read-only gift folder takes no items, so it is left out).",
  tag: TAG,
  access: "reader",
  params: savedItemId,
  answers: {
    200: {
      description: "The reader's writable folders, `selected` when the item is in it.",
      schema: z.object({ id: z.string(), lists: z.array(z.object({ id: z.string(), name: z.string(), selected: z.boolean() })) }),
    },
    404: notOwnItem,
  },
});

export const listUrl = endpoint({
  method: "get",
  operationId: "getFolderUrl",
  path: "/service/user/list/url/{id}",
  summary: "The absolute address (`listurl`) of one of the reader's folders' page in My Library.",
  tag: TAG,
  access: "reader",
  params: folderId,
  answers: {
    200: { description: "The folder's page.", schema: z.object({ id: z.string(), listurl: z.string().url() }) },
    404: error("The reader has no folder with this id (another reader's folder included)."),
  },
});

export const getLists = endpoint({
  method: "get",
  operationId: "getFolders",
  path: "/service/user/lists",
  summary:
    "The reader's folders as the library lists them: the read-only gift folder first, then their own in the order they were made, each with how many items it holds.",
  tag: TAG,
  access: "reader",
  answers: { 200: { description: "The folders.", schema: z.object({ lists: z.array(folderAnswerSchema) }) } },
});

export const deleteLists = endpoint({
  method: "delete",
  operationId: "deleteFolders",
  path: "/service/user/lists",
  summary:
    "Deletes every folder of the reader's that the library page lets them delete; the read-only gift folder stays, and saved items stay in the library.",
  tag: TAG,
  access: "reader",
  answers: {
    200: {
      description: "How many folders were deleted, and how many read-only ones were kept.",
      schema: z.object({ deleted: z.number().int(), kept: z.number().int() }),
    },
  },
});

export const createList = endpoint({
  method: "post",
  operationId: "createFolder",
  path: "/service/user/list/{name}",
  summary: "Creates a folder with this name (spec 5 folder rules; the name is trimmed) and an optional description.",
  tag: TAG,
  access: "reader",
  params: newFolderName,
  body: folderSchema.pick({ description: true }),
  answers: {
    201: {
      description: 'Created ("Folder created.").',
      schema: z.object({ folder: folderAnswerSchema, message: z.string() }),
    },
    400: error("The input is not valid, or the reader already has as many folders as allowed."),
    409: error('A folder with this name exists: "A folder with this title already exists."'),
  },
});

export const deleteList = endpoint({
  method: "delete",
  operationId: "deleteFolder",
  path: "/service/user/list/{name}",
  summary: "Deletes the reader's folder with this name (ignoring case and spaces); its items stay in the library.",
  tag: TAG,
  access: "reader",
  params: folderName,
  answers: {
    200: { description: "Deleted.", schema: z.object({ folder: folderAnswerSchema, message: z.string() }) },
    403: error("A read-only folder (gifted articles) cannot be deleted, or another site started the request."),
    404: error("The reader has no folder with this name."),
  },
});

export const saveItem = endpoint({
  method: "post",
  operationId: "saveItem",
  path: "/service/user/saves",
  summary:
    "Saves an article, video or podcast episode (`type`, `id`) to the reader's library and into the folders `listIds` names, as the save page does: saving again only adds folders, and ids of folders that are not the reader's own writable ones are passed over.",
  tag: TAG,
  access: "reader",
  body: shareRefSchema.extend({
    listIds: z
      .union([z.string().max(64), z.array(z.string().max(64)).max(100)])
      .optional()
      .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
      .describe("The folders to put it in (none: only All Folders)."),
  }),
  answers: {
    200: {
      description: 'Saved ("Saved!"): the saved item\'s id and the folders it is now in.',
      schema: z.object({ id: z.string(), listIds: z.array(z.string()), message: z.string() }),
    },
    404: error("Nothing to save: no such article, video or episode."),
  },
});

export const deleteSave = endpoint({
  method: "delete",
  operationId: "deleteSave",
  path: "/service/user/saves",
  summary: "Removes a saved item (`id`) from the reader's library.",
  tag: TAG,
  access: "reader",
  body: z.object({ id: bulkUpdateSchema.shape.id }),
  answers: {
    200: { description: 'Removed ("Removed from My Library").', schema: z.object({ id: z.string(), message: z.string() }) },
    403: error("A gifted article stays in the library, or another site started the request."),
    404: error("No such item in the reader's library."),
  },
});

/** The spec's follow types, and the follow kinds the pages use for them. */
export const FOLLOW_TYPES = { topic: "topic", newsletter: "newsletter", marketingCampaign: "campaign" } as const;

const targetName = z
  .string({ required_error: "This field is required." })
  .trim()
  .min(1, "This field is required.")
  .max(100, "This field must be less than 100 characters.");

const followBody = z.object({
  name: targetName.describe("The topic's id, the newsletter's slug or the campaign's id, as the pages send them."),
  type: z.enum(["topic", "newsletter", "marketingCampaign"], {
    errorMap: () => ({ message: "Please choose topic, newsletter or marketingCampaign." }),
  }),
});
const followAnswer = z.object({ name: z.string(), type: z.string(), title: z.string(), following: z.boolean() });
const unknownTarget = error("No such topic, newsletter or campaign.");

export const followPost = endpoint({
  method: "post",
  operationId: "follow",
  path: "/service/user/follow",
  summary: "Follows a topic, newsletter or marketing campaign (following again changes nothing).",
  tag: TAG,
  access: "reader",
  body: followBody,
  answers: {
    200: { description: "Following.", schema: followAnswer },
    403: error("Subscriber-only or Executive-only (the message says which), or another site started the request."),
    404: unknownTarget,
  },
});

export const followDelete = endpoint({
  method: "delete",
  operationId: "unfollow",
  path: "/service/user/follow",
  summary: "Stops following a topic, newsletter or marketing campaign.",
  tag: TAG,
  access: "reader",
  body: followBody,
  answers: { 200: { description: "Not following.", schema: followAnswer }, 404: unknownTarget },
});

export const topicList = endpoint({
  method: "get",
  operationId: "getFollowedTopics",
  path: "/service/topic",
  summary: "The topics the reader follows, by name.",
  tag: TAG,
  access: "reader",
  answers: {
    200: { description: "The followed topics.", schema: z.array(z.object({ id: z.number().int(), name: z.string() })) },
  },
});

export const topicDelete = endpoint({
  method: "delete",
  operationId: "unfollowTopic",
  path: "/service/topic",
  summary:
    'Stops following a topic the reader follows, named as GET /service/topic names it (any case; "RD" names "R&D", as the following stream\'s filter does).',
  tag: TAG,
  access: "reader",
  body: z.object({ name: targetName.describe("The topic's name.") }),
  answers: {
    200: {
      description: "No longer following.",
      schema: z.object({ id: z.number().int(), name: z.string(), following: z.literal(false) }),
    },
    404: error("The reader follows no topic of this name."),
  },
});

const newsletterBody = z.object({ name: targetName.describe("The newsletter's slug.") });
const subscribedAnswer = z.object({ name: z.string(), title: z.string(), subscribed: z.boolean() });
const unknownNewsletter = error("No such newsletter.");

const subscribeAnswers = {
  200: { description: "Subscribed.", schema: subscribedAnswer },
  403: error("A subscriber-only newsletter, or another site started the request."),
  404: unknownNewsletter,
};

export const userSubscribe = endpoint({
  method: "post",
  operationId: "subscribeNewsletter",
  path: "/service/user/subscribe",
  summary: "Subscribes the signed-in reader to a newsletter.",
  tag: TAG,
  access: "reader",
  body: newsletterBody,
  answers: subscribeAnswers,
});

export const userUnsubscribe = endpoint({
  method: "delete",
  operationId: "unsubscribeNewsletter",
  path: "/service/user/subscribe",
  summary: "Unsubscribes the signed-in reader from a newsletter.",
  tag: TAG,
  access: "reader",
  body: newsletterBody,
  answers: { 200: { description: "Unsubscribed.", schema: subscribedAnswer }, 404: unknownNewsletter },
});

export const unsubscribeAll = endpoint({
  method: "delete",
  operationId: "unsubscribeAllNewsletters",
  path: "/service/user/unsubscribe/all",
  summary: "Unsubscribes the signed-in reader from every newsletter.",
  tag: TAG,
  access: "reader",
  answers: {
    200: { description: "How many newsletters they left.", schema: z.object({ unsubscribed: z.number().int(), message: z.string() }) },
  },
});

export const newslettersSubscribe = endpoint({
  method: "post",
  operationId: "newslettersSubscribe",
  path: "/service/newsletters/subscribe",
  summary: "Subscribes the signed-in reader to a newsletter, as the Email Newsletters page does (it has no guest sign-up).",
  tag: TAG,
  access: "reader",
  body: newsletterBody,
  answers: subscribeAnswers,
});

export const newslettersUnsubscribe = endpoint({
  method: "post",
  operationId: "newslettersUnsubscribe",
  path: "/service/newsletters/unsubscribe",
  summary:
    "Unsubscribes from a newsletter: anyone holding the `token` of a newsletter's unsubscribe link (no sign-in, as the link's page), or the signed-in reader by the newsletter's `name`.",
  tag: TAG,
  access: "public",
  body: z.object({
    name: targetName.optional().describe("The newsletter's slug (signed in)."),
    token: z.string().max(512).optional().describe("The token of an unsubscribe link."),
  }),
  answers: {
    200: { description: "Unsubscribed.", schema: subscribedAnswer },
    400: error("Neither a valid `token` nor a `name`, or the link is not valid."),
    401: error("No `token`, and not signed in."),
    404: unknownNewsletter,
  },
});

export const share = endpoint({
  method: "post",
  operationId: "shareByEmail",
  path: "/service/user/share",
  summary:
    "Shares an article, video or podcast episode (`type`, `id`) by e-mail from the signed-in reader, as the share page does (at most 20 e-mail shares a day).",
  tag: TAG,
  access: "reader",
  body: emailShareSchema.merge(shareRefSchema),
  answers: {
    200: {
      description: 'Sent ("Shared via e-mail").',
      schema: z.object({ sent: z.literal(true), recipients: z.number().int(), message: z.string() }),
    },
    403: error("A subscriber-only video, shared by a reader who is not its subscriber, or another site started the request."),
    404: error("Nothing to share: no such item."),
    429: {
      ...error("The reader has shared as many e-mails as allowed today."),
      headers: { "Retry-After": "Seconds until they may share again." },
    },
  },
});

// The site has no guest sign-up by e-mail (the Email Newsletters page asks a guest to sign in),
// so the spec's /api/ sign-ups are twins of the /service/ ones.
export const apiNewslettersSubscribe = endpoint({
  ...newslettersSubscribe,
  operationId: "apiNewslettersSubscribe",
  path: "/api/newsletters/subscribe",
  summary:
    "The twin of POST /service/newsletters/subscribe: subscribes the signed-in reader to a newsletter (the site has no guest sign-up).",
});

const campaignBody = z.object({ name: targetName.describe("The marketing campaign's id.") });
const unknownCampaign = error("No such marketing campaign.");

export const campaignSubscribe = endpoint({
  method: "post",
  operationId: "subscribeCampaign",
  path: "/service/user/marketingcampaign/subscribe",
  summary: "Subscribes the signed-in reader to a marketing campaign's e-mail.",
  tag: TAG,
  access: "reader",
  body: campaignBody,
  answers: { 200: { description: "Subscribed.", schema: subscribedAnswer }, 404: unknownCampaign },
});

export const campaignUnsubscribe = endpoint({
  method: "delete",
  operationId: "unsubscribeCampaign",
  path: "/service/user/marketingcampaign/subscribe",
  summary: "Unsubscribes the signed-in reader from a marketing campaign's e-mail.",
  tag: TAG,
  access: "reader",
  body: campaignBody,
  answers: { 200: { description: "Unsubscribed.", schema: subscribedAnswer }, 404: unknownCampaign },
});

export const apiCampaignSubscribe = endpoint({
  ...campaignSubscribe,
  operationId: "apiCampaignSubscribe",
  path: "/api/marketingcampaign/subscribe",
  summary:
    "The twin of POST /service/user/marketingcampaign/subscribe: subscribes the signed-in reader to a marketing campaign's e-mail (the site has no guest sign-up).",
});

export const endpoints = [
  bulkAdd,
  bulkRemove,
  createList,
  deleteList,
  saveItem,
  deleteSave,
  itemLists,
  listUrl,
  getLists,
  deleteLists,
  followPost,
  followDelete,
  topicList,
  topicDelete,
  userSubscribe,
  userUnsubscribe,
  unsubscribeAll,
  newslettersSubscribe,
  apiNewslettersSubscribe,
  newslettersUnsubscribe,
  share,
  campaignSubscribe,
  campaignUnsubscribe,
  apiCampaignSubscribe,
];
