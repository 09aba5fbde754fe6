// @vitest-environment jsdom
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ArticleCard } from "~/server/content/article-cards";
import type { StreamPage } from "~/server/content/streams";
import { Pagination } from "~/app/components/Pagination";
import { StreamList } from "~/app/components/StreamList";

afterEach(cleanup);

function card(id: number): ArticleCard {
  return {
    id,
    title: `Article ${id}`,
    summary: `Summary ${id}`,
    url: `/2025/01/article-${id}`,
    image: `/art/article/article-${id}.svg`,
    hero: null,
    contentType: "Article",
    published: "2025-01-15",
    tier: "article",
    topic: { name: "Strategy", url: "/topic/subject/strategy" },
    authors: [{ name: "A. Writer" }],
  };
}

function stream(number: number, loaded: number, last: number): StreamPage {
  const size = 10;
  return {
    entries: Array.from({ length: size * loaded }, (_, i) => card((number - 1) * size + i + 1)),
    page: { number, loaded, last, size, total: last * size },
  };
}

function renderAt(path: string, element: () => JSX.Element) {
  const Stub = createRemixStub([{ path: "/the-latest", Component: element }]);
  render(<Stub initialEntries={[path]} />);
}

/** The list of the stream's cards (the pagination is a list too). */
const articleList = () => screen.getAllByRole("list").find((list) => within(list).queryAllByRole("article").length > 0)!;

describe("StreamList", () => {
  it("offers Load more items as a link to the next loaded count, keeping other query values", () => {
    renderAt("/the-latest?topic=x", () => <StreamList stream={stream(1, 1, 5)} unlimited={false} emptyText="Empty" />);
    expect(screen.getByRole("link", { name: "Load more items" }).getAttribute("href")).toBe("/the-latest?topic=x&loaded=2");
    expect(screen.getAllByRole("article")).toHaveLength(10);
  });

  it("hides Load more items after two loads unless unlimited loading is on", () => {
    renderAt("/the-latest?loaded=2", () => <StreamList stream={stream(1, 2, 5)} unlimited={false} emptyText="Empty" />);
    expect(screen.queryByRole("link", { name: "Load more items" })).toBeNull();
    cleanup();
    renderAt("/the-latest?loaded=2", () => <StreamList stream={stream(1, 2, 5)} unlimited emptyText="Empty" />);
    expect(screen.getByRole("link", { name: "Load more items" }).getAttribute("href")).toBe("/the-latest?loaded=3");
  });

  it("numbers page 2's list from 11, as the count above it says, and page 1's from 1", () => {
    renderAt("/the-latest?page=2", () => <StreamList stream={stream(2, 1, 5)} unlimited={false} emptyText="Empty" />);
    expect(screen.getByText("Showing 11–20 of 50")).toBeTruthy();
    expect(articleList().getAttribute("start")).toBe("11");
    cleanup();
    renderAt("/the-latest", () => <StreamList stream={stream(1, 1, 5)} unlimited={false} emptyText="Empty" />);
    expect(articleList().getAttribute("start")).toBeNull();
  });

  it("hides Load more items on the last page and shows the empty text for an empty stream", () => {
    renderAt("/the-latest?page=5", () => <StreamList stream={stream(5, 1, 5)} unlimited={false} emptyText="Empty" />);
    expect(screen.queryByRole("link", { name: "Load more items" })).toBeNull();
    cleanup();
    renderAt("/the-latest", () => (
      <StreamList
        stream={{ entries: [], page: { number: 1, loaded: 1, last: 1, size: 10, total: 0 } }}
        unlimited={false}
        emptyText="Nothing yet."
      />
    ));
    expect(screen.getByText("Nothing yet.")).toBeTruthy();
  });
});

describe("Pagination", () => {
  it("renders Previous, numbers, a non-clickable gap and Next", () => {
    renderAt("/the-latest", () => <Pagination current={10} last={20} href={(p) => `?page=${p}`} />);
    const nav = screen.getByRole("navigation", { name: "Pagination" });
    const links = within(nav)
      .getAllByRole("link")
      .map((a) => a.textContent);
    expect(links).toEqual(["Previous", "1", "8", "9", "10", "11", "12", "20", "Next"]);
    expect(within(nav).getAllByText("...")).toHaveLength(2);
    expect(within(nav).queryAllByRole("link", { name: "..." })).toHaveLength(0);
    expect(within(nav).getByRole("link", { name: "Page 10" }).getAttribute("aria-current")).toBe("page");
  });

  it("leaves out Previous on the first page and Next on the last, and renders nothing for one page", () => {
    renderAt("/the-latest", () => <Pagination current={1} last={3} href={(p) => `?page=${p}`} />);
    expect(screen.queryByRole("link", { name: "Previous" })).toBeNull();
    expect(screen.getByRole("link", { name: "Next" })).toBeTruthy();
    cleanup();
    renderAt("/the-latest", () => <Pagination current={1} last={1} href={(p) => `?page=${p}`} />);
    expect(screen.queryByRole("navigation")).toBeNull();
  });
});
