// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { OrderDownloads } from "~/app/components/store/OrderDownloads";

afterEach(cleanup);

describe("OrderDownloads", () => {
  it("links each download, says until when a case study can be fetched, and that an ended one cannot", () => {
    render(
      <OrderDownloads
        downloads={[
          {
            position: 2,
            title: "Quiet Authority",
            format: "EPUB",
            href: "/download/order/ord_a/2?key=k",
            expiresAt: null,
            expired: false,
            refunded: false,
          },
          {
            position: 3,
            title: "Corvell Foods",
            format: "PDF",
            href: "/download/order/ord_a/3?key=k",
            expiresAt: "2026-07-10T15:00:00.000Z",
            expired: false,
            refunded: false,
          },
          {
            position: 4,
            title: "Brightwater Utilities",
            format: "PDF",
            href: "/download/order/ord_a/4?key=k",
            expiresAt: "2026-05-01T15:00:00.000Z",
            expired: true,
            refunded: false,
          },
        ]}
      />,
    );
    const section = screen.getByRole("region", { name: "Downloads" });
    const links = within(section).getAllByRole("link");
    expect(links.map((l) => [l.textContent, l.getAttribute("href")])).toEqual([
      ["Download Quiet Authority (EPUB)", "/download/order/ord_a/2?key=k"],
      ["Download Corvell Foods (PDF)", "/download/order/ord_a/3?key=k"],
    ]);
    expect(section.textContent).toContain("available until July 10, 2026");
    expect(section.textContent).toContain("Brightwater Utilities (PDF): access ended on May 01, 2026");
  });

  it("shows nothing for an order without downloads", () => {
    const { container } = render(<OrderDownloads downloads={[]} />);
    expect(container.innerHTML).toBe("");
  });
});
