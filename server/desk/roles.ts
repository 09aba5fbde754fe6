// Who may do what at the desk (ADR 072): the one place a desk action's roles are written down.
// Every desk route asks `mayAct` on the server before it acts or shows anything.

import { ROLES, type Role } from "~/shared/staff-roles";

/** Every action the desk has today; a new page or form adds its action here first. */
export const DESK_ACTIONS = [
  /** The desk's home page and the staff member's own second factor (recovery codes). */
  "desk.enter",
  "staff.list",
  /** Add a reader as staff, or give a staff member a new enrolment link. */
  "staff.add",
  "staff.change-roles",
  "staff.remove",
  "audit.read",
  /** The staff API keys: list them (and when each was last used), and revoke one. */
  "api-keys.list",
  "api-keys.revoke",
  /** Editorial (ADR 076): list and read articles in every state, with their revisions. */
  "articles.list",
  /** Create and save articles, and restore a revision. */
  "articles.edit",
  /** Publish, schedule and unpublish. */
  "articles.publish",
  /** Admin API (ADR 074): a key's roles are checked against these as a staff member's are. */
  "api.articles.read",
  /** Create, save, publish and unpublish articles through the Admin API. */
  "api.articles.write",
  /** Authors and topics (ADR 078): list and read them; add and change them. */
  "authors.list",
  "authors.edit",
  "topics.list",
  "topics.edit",
  "api.authors.read",
  "api.authors.write",
  "api.topics.read",
  "api.topics.write",
  /** The home page's lead and pinned stories. */
  "home.curate",
  /** Reading lists: list and read them at the desk. */
  "reading-lists.list",
  /** Create reading lists and save their fields and articles. */
  "reading-lists.edit",
  /** Admin API: read reading lists. */
  "api.reading-lists.read",
  /** Admin API: create and save reading lists. */
  "api.reading-lists.write",
  /** Magazine issues: list and read them at the desk. */
  "issues.list",
  /** Add issues, and save their fields, contents and cover. */
  "issues.edit",
  /** Admin API: read magazine issues. */
  "api.issues.read",
  /** Admin API: add issues, and save their fields, contents and cover. */
  "api.issues.write",
  /** Newsletters (ADR 084): their followers and issues, an issue's page and its preview. */
  "newsletters.list",
  /** Start and save an issue's draft, and send a test of it to oneself. */
  "newsletters.compose",
  /** Send an issue to its followers, now or at a time, or take it off the schedule. */
  "newsletters.send",
  /** Videos and podcast episodes (ADR 083): list and read them. */
  "media.list",
  /** Create and save videos and episodes, and upload their files and captions. */
  "media.edit",
  /** Admin API: read videos and episodes. */
  "api.media.read",
  /** Admin API: create and save videos and episodes, and upload their files. */
  "api.media.write",
  /** Customer service (ADR 087): find readers, and read a reader's page. */
  "readers.find",
  /** Act on a reader's account: unlock, restrict, resend mail, link print, extend a case study's downloads. */
  "readers.act",
  /** Extend a reader's subscription, or grant a complimentary one. */
  "subscriptions.grant",
  /** Store orders (ADR 086): the list, its CSV, and an order's page with its lines, payments, refunds and mail. */
  "orders.list",
  /** Dispatch shipped lines with a carrier and tracking number, and mark them delivered. */
  "orders.fulfil",
  /** Refund chosen lines or the whole order, and cancel a paid order with a full refund. */
  "orders.refund",
  /** The publisher's reports (ADR 090): sales, subscriptions and the meter funnel, and their CSV. */
  "reports.view",
  /** The store's catalogue (ADR 091): products and their formats, covers, download files and prices over time. */
  "catalogue.products",
  /** Promo codes and vouchers: add them, limit them, disable them, and see who used them on which order. */
  "catalogue.offers",
] as const;
export type DeskAction = (typeof DESK_ACTIONS)[number];

const ALLOWED: Record<DeskAction, readonly Role[]> = {
  "desk.enter": ROLES,
  "staff.list": ["admin"],
  "staff.add": ["admin"],
  "staff.change-roles": ["admin"],
  "staff.remove": ["admin"],
  "audit.read": ["admin"],
  "api-keys.list": ["admin"],
  "api-keys.revoke": ["admin"],
  "articles.list": ["admin", "editor"],
  "articles.edit": ["admin", "editor"],
  "articles.publish": ["admin", "editor"],
  "api.articles.read": ["admin", "editor"],
  "api.articles.write": ["admin", "editor"],
  "authors.list": ["admin", "editor"],
  "authors.edit": ["admin", "editor"],
  "topics.list": ["admin", "editor"],
  "topics.edit": ["admin", "editor"],
  "api.authors.read": ["admin", "editor"],
  "api.authors.write": ["admin", "editor"],
  "api.topics.read": ["admin", "editor"],
  "api.topics.write": ["admin", "editor"],
  "home.curate": ["admin", "editor"],
  "reading-lists.list": ["admin", "editor"],
  "reading-lists.edit": ["admin", "editor"],
  "api.reading-lists.read": ["admin", "editor"],
  "api.reading-lists.write": ["admin", "editor"],
  "issues.list": ["admin", "editor"],
  "issues.edit": ["admin", "editor"],
  "api.issues.read": ["admin", "editor"],
  "api.issues.write": ["admin", "editor"],
  "newsletters.list": ["admin", "editor"],
  "newsletters.compose": ["admin", "editor"],
  "newsletters.send": ["admin", "editor"],
  "media.list": ["admin", "editor"],
  "media.edit": ["admin", "editor"],
  "api.media.read": ["admin", "editor"],
  "api.media.write": ["admin", "editor"],
  "readers.find": ["admin", "service"],
  "readers.act": ["admin", "service"],
  "subscriptions.grant": ["admin", "service"],
  "orders.list": ["admin", "store", "service"],
  "orders.fulfil": ["admin", "store"],
  "orders.refund": ["admin", "store", "service"],
  "reports.view": ["admin", "store"],
  "catalogue.products": ["admin", "store"],
  "catalogue.offers": ["admin", "store"],
};

/** Whether someone holding these roles may take this action. */
export function mayAct(roles: readonly Role[], action: DeskAction): boolean {
  return roles.some((role) => ALLOWED[action].includes(role));
}

/**
 * The desk's areas, in the order its home page and its bar list them, each with its pages: the
 * action that opens a page and its address. Areas without pages yet are announced for the roles
 * that will use them.
 */
export const DESK_AREAS = [
  {
    id: "editorial",
    title: "Editorial",
    roles: ["admin", "editor"],
    pages: [
      { title: "Articles", opens: "articles.list", path: "/desk/articles" },
      { title: "Authors", opens: "authors.list", path: "/desk/authors" },
      { title: "Topics", opens: "topics.list", path: "/desk/topics" },
      { title: "Reading lists", opens: "reading-lists.list", path: "/desk/reading-lists" },
      { title: "Magazine", opens: "issues.list", path: "/desk/magazine" },
      { title: "Home page", opens: "home.curate", path: "/desk/home" },
      { title: "Newsletters", opens: "newsletters.list", path: "/desk/newsletters" },
    ],
  },
  {
    id: "media",
    title: "Video and audio",
    roles: ["admin", "editor"],
    pages: [
      { title: "Videos", opens: "media.list", path: "/desk/videos" },
      { title: "Podcasts", opens: "media.list", path: "/desk/podcasts" },
    ],
  },
  {
    id: "store",
    title: "Store",
    roles: ["admin", "store"],
    pages: [
      { title: "Orders", opens: "orders.list", path: "/desk/orders" },
      { title: "Products", opens: "catalogue.products", path: "/desk/products" },
      { title: "Offers", opens: "catalogue.offers", path: "/desk/offers" },
    ],
  },
  {
    id: "service",
    title: "Customer service",
    roles: ["admin", "service"],
    pages: [
      { title: "Readers", opens: "readers.find", path: "/desk/readers" },
      { title: "Orders", opens: "orders.list", path: "/desk/orders" },
    ],
  },
  {
    id: "reports",
    title: "Reports",
    roles: ["admin", "store"],
    pages: [{ title: "Reports", opens: "reports.view", path: "/desk/reports" }],
  },
  { id: "staff", title: "Staff", roles: ["admin"], pages: [{ title: "Staff", opens: "staff.list", path: "/desk/staff" }] },
  { id: "audit", title: "Audit log", roles: ["admin"], pages: [{ title: "Audit log", opens: "audit.read", path: "/desk/audit" }] },
  { id: "api-keys", title: "API keys", roles: ["admin"], pages: [{ title: "API keys", opens: "api-keys.list", path: "/desk/api-keys" }] },
] as const satisfies readonly {
  id: string;
  title: string;
  roles: readonly Role[];
  pages: readonly { title: string; opens: DeskAction; path: string }[];
}[];

export type DeskArea = (typeof DESK_AREAS)[number];

/** The areas these roles work in, in the desk's order. */
export function areasFor(roles: readonly Role[]): DeskArea[] {
  return DESK_AREAS.filter((area) => area.roles.some((role) => roles.includes(role)));
}

/** An area's pages these roles may open, in its order. */
export function pagesFor(area: DeskArea, roles: readonly Role[]): { title: string; path: string }[] {
  return (area.pages as readonly { title: string; opens: DeskAction; path: string }[])
    .filter((page) => mayAct(roles, page.opens))
    .map(({ title, path }) => ({ title, path }));
}

/** The desk's bar: every page these roles may open, area by area, each once (Orders is both the store's and customer service's). */
export function deskNavigation(roles: readonly Role[]): { title: string; path: string }[] {
  const pages = areasFor(roles).flatMap((area) => pagesFor(area, roles));
  return pages.filter((page, i) => pages.findIndex((p) => p.path === page.path) === i);
}
