import path from "node:path";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The server matches each request through our patch of @remix-run/router (ADR 044), which passes
// over a branch whose whole path cannot match before matching it route by route. These addresses
// are the site's own, against the built app's routes (npm test builds before Vitest runs).

type BuiltRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

async function appRoutes(): Promise<AgnosticRouteObject[]> {
  const build = (await import(path.resolve("build/server/index.js"))) as { routes: Record<string, BuiltRoute> };
  const all = Object.values(build.routes);
  const children = (parentId: string | undefined): AgnosticRouteObject[] =>
    all
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: children(route.id) },
      );
  return children(undefined);
}

describe("route matching on the server", async () => {
  const routes = await appRoutes();
  const leaf = (pathname: string) => {
    const matches = matchRoutes(routes, pathname);
    const last = matches?.at(-1);
    return last ? { id: last.route.id, params: last.params } : null;
  };

  it("finds each kind of page, with its parameters", () => {
    expect(leaf("/")).toEqual({ id: "routes/_index", params: {} });
    expect(leaf("/2026/10/when-local-managers-push-back")).toEqual({
      id: "routes/$year.$month.$slug",
      params: { year: "2026", month: "10", slug: "when-local-managers-push-back" },
    });
    expect(leaf("/topic/subject/strategy")).toEqual({ id: "routes/topic.subject.$slug", params: { slug: "strategy" } });
    expect(leaf("/product/lines-of-flow/1009")).toEqual({
      id: "routes/product.$slug.$availabilityId",
      params: { slug: "lines-of-flow", availabilityId: "1009" },
    });
    expect(leaf("/product/lines-of-flow/1009/an/extra/parts")?.params["*"]).toBe("extra/parts");
    expect(leaf("/service/search/more-results/2/12")?.id).toBe("routes/service.search.more-results.$number.$size");
    expect(leaf("/service/user/saves/7/lists")?.id).toBe("routes/service.user.saves_.$id.lists");
    expect(leaf("/podcasts/the-long-view/feed.xml")?.id).toBe("routes/podcasts_.$slug.feed[.xml]");
    expect(leaf("/podcasts/the-long-view/12-a-talk")).toEqual({
      id: "routes/podcasts_.$slug.$episode",
      params: { slug: "the-long-view", episode: "12-a-talk" },
    });
    expect(leaf("/the-latest")).toEqual({ id: "routes/$stream", params: { stream: "the-latest" } });
  });

  it("prefers a page's own address to the catch-all ones, as React Router ranks them", () => {
    expect(leaf("/store")?.id).toBe("routes/store");
    expect(leaf("/sitemap.xml")?.id).toBe("routes/sitemap[.xml]");
    expect(leaf("/search")?.id).toBe("routes/search");
    expect(leaf("/video/12/a-talk")?.id).toBe("routes/video.$id_.$slug");
  });

  it("treats trailing slashes, letter case and encoded characters as before", () => {
    expect(leaf("/topic/subject/strategy/")?.id).toBe("routes/topic.subject.$slug");
    expect(leaf("/TOPIC/Subject/strategy")).toEqual({ id: "routes/topic.subject.$slug", params: { slug: "strategy" } });
    expect(leaf("/topic/subject/a%20b%E2%9C%93")?.params).toEqual({ slug: "a b✓" });
    expect(leaf("/2026/10/slug%2Fwith-slash")?.params.slug).toBe("slug/with-slash");
  });

  it("leaves an address no page has to the catch-all route", () => {
    expect(leaf("/no/such/page/here")).toEqual({ id: "routes/$", params: { "*": "no/such/page/here" } });
    expect(leaf("//2026/10/x")?.id).toBe("routes/$");
  });
});
