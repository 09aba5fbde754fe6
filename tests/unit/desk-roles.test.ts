import { describe, expect, it } from "vitest";
import { areasFor, DESK_ACTIONS, DESK_AREAS, deskNavigation, mayAct, pagesFor, type DeskAction } from "~/server/desk/roles";
import { ROLES, type Role } from "~/shared/staff-roles";

// The desk's rule of who may do what (ADR 072), written out in full: a change to it must change
// this table too.
const EXPECTED: Record<DeskAction, Role[]> = {
  "desk.enter": ["admin", "editor", "store", "service"],
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

describe("desk roles", () => {
  it("allows each action to exactly the roles the table names, and nothing to no role", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...DESK_ACTIONS].sort());
    for (const action of DESK_ACTIONS) {
      for (const role of ROLES) expect(mayAct([role], action), `${role} × ${action}`).toBe(EXPECTED[action].includes(role));
      expect(mayAct([], action), `no role × ${action}`).toBe(false);
    }
  });

  it("adds up several roles' rights", () => {
    expect(mayAct(["editor", "store"], "staff.list")).toBe(false);
    expect(mayAct(["service"], "articles.publish")).toBe(false);
    expect(mayAct(["service", "editor"], "articles.publish")).toBe(true);
    expect(mayAct(["service", "admin"], "audit.read")).toBe(true);
    expect(mayAct(["store", "service"], "issues.edit")).toBe(false);
    expect(mayAct(["store", "editor"], "api.issues.write")).toBe(true);
    expect(mayAct(["store", "editor"], "readers.act")).toBe(false);
    expect(mayAct(["store", "service"], "subscriptions.grant")).toBe(true);
    expect(mayAct(["service", "editor"], "reports.view")).toBe(false);
    expect(mayAct(["service", "store"], "reports.view")).toBe(true);
  });

  it("lists an area for the roles that work in it, and each of an area's pages opens with an action those roles hold (Orders: the store's and service's)", () => {
    expect(areasFor(["admin"]).map((a) => a.id)).toEqual([
      "editorial",
      "media",
      "store",
      "service",
      "reports",
      "staff",
      "audit",
      "api-keys",
    ]);
    expect(areasFor(["editor"]).map((a) => a.id)).toEqual(["editorial", "media"]);
    expect(areasFor(["store", "service"]).map((a) => a.id)).toEqual(["store", "service", "reports"]);
    expect(areasFor(["service"]).map((a) => a.id)).toEqual(["service"]);
    for (const area of DESK_AREAS) {
      for (const page of area.pages as readonly { path: string; opens: DeskAction }[])
        for (const role of ROLES)
          if ((area.roles as readonly Role[]).includes(role)) expect(mayAct([role], page.opens), `${role} × ${page.path}`).toBe(true);
      expect(
        DESK_AREAS.filter((area) => (area.pages as readonly { path: string }[]).some((p) => p.path === "/desk/orders")).map((a) => a.id),
      ).toEqual(["store", "service"]);
    }
  });

  it("puts every page the roles may open in the desk's bar, the editorial area's several pages first", () => {
    expect(deskNavigation(["editor"])).toEqual([
      { title: "Articles", path: "/desk/articles" },
      { title: "Authors", path: "/desk/authors" },
      { title: "Topics", path: "/desk/topics" },
      { title: "Reading lists", path: "/desk/reading-lists" },
      { title: "Magazine", path: "/desk/magazine" },
      { title: "Home page", path: "/desk/home" },
      { title: "Newsletters", path: "/desk/newsletters" },
      { title: "Videos", path: "/desk/videos" },
      { title: "Podcasts", path: "/desk/podcasts" },
    ]);
    expect(deskNavigation(["admin"]).map((p) => p.path)).toEqual([
      "/desk/articles",
      "/desk/authors",
      "/desk/topics",
      "/desk/reading-lists",
      "/desk/magazine",
      "/desk/home",
      "/desk/newsletters",
      "/desk/videos",
      "/desk/podcasts",
      "/desk/orders",
      "/desk/products",
      "/desk/offers",
      "/desk/readers",
      "/desk/reports",
      "/desk/staff",
      "/desk/audit",
      "/desk/api-keys",
    ]);
    expect(deskNavigation(["store", "service"])).toEqual([
      { title: "Orders", path: "/desk/orders" },
      { title: "Products", path: "/desk/products" },
      { title: "Offers", path: "/desk/offers" },
      { title: "Readers", path: "/desk/readers" },
      { title: "Reports", path: "/desk/reports" },
    ]);
    expect(deskNavigation(["service"])).toEqual([
      { title: "Readers", path: "/desk/readers" },
      { title: "Orders", path: "/desk/orders" },
    ]);
    // The reports (ADR 090) are the store's and admins', not customer service's nor editors'.
    expect(deskNavigation(["store"])).toEqual([
      { title: "Orders", path: "/desk/orders" },
      { title: "Products", path: "/desk/products" },
      { title: "Offers", path: "/desk/offers" },
      { title: "Reports", path: "/desk/reports" },
    ]);
    expect(pagesFor(DESK_AREAS[0], ["store"])).toEqual([]);
  });
});
