import { describe, expect, it } from "vitest";
import { DEFAULT_ADD_TO_CART_REFERRAL, referralCode } from "~/server/store/links";
import { addToCartHref } from "~/shared/add-to-cart-links";

const SITE = "https://meridian.example";

describe("the /an/ rule for add-to-cart product links", () => {
  it("inserts /an/ after the third path segment of a product page: the availability id", () => {
    expect(addToCartHref("/product/the-patient-ledger/1001")).toBe("/product/the-patient-ledger/1001/an/");
  });

  it("keeps what follows the third segment, the query and the fragment", () => {
    expect(addToCartHref("/product/the-patient-ledger/1001/extra")).toBe("/product/the-patient-ledger/1001/an/extra");
    expect(addToCartHref("/product/the-patient-ledger/1001?referral=03069")).toBe("/product/the-patient-ledger/1001/an/?referral=03069");
    expect(addToCartHref("/product/the-patient-ledger/1001#formats")).toBe("/product/the-patient-ledger/1001/an/#formats");
  });

  it("leaves a link that already contains /an/ as it is, so rewriting twice changes nothing", () => {
    expect(addToCartHref("/product/the-patient-ledger/1001/an/")).toBe("/product/the-patient-ledger/1001/an/");
    const once = addToCartHref("/product/quiet-authority/1004");
    expect(addToCartHref(once)).toBe(once);
  });

  it("leaves links without /product/ and product paths without a third segment as they are", () => {
    expect(addToCartHref("/2025/01/an-article")).toBe("/2025/01/an-article");
    expect(addToCartHref("/store?type=book")).toBe("/store?type=book");
    expect(addToCartHref("/product/7")).toBe("/product/7");
    expect(addToCartHref("/product/the-patient-ledger/")).toBe("/product/the-patient-ledger/");
  });

  it("leaves external links alone, and rewrites absolute links to the site's own origin", () => {
    expect(addToCartHref("https://elsewhere.example/product/a-book/12")).toBe("https://elsewhere.example/product/a-book/12");
    expect(addToCartHref("//elsewhere.example/product/a-book/12")).toBe("//elsewhere.example/product/a-book/12");
    expect(addToCartHref("https://elsewhere.example/product/a-book/12", SITE)).toBe("https://elsewhere.example/product/a-book/12");
    expect(addToCartHref(`${SITE}/product/a-book/12`, SITE)).toBe(`${SITE}/product/a-book/12/an/`);
    expect(addToCartHref(`${SITE}/product/a-book/12`)).toBe(`${SITE}/product/a-book/12`);
    expect(addToCartHref("mailto:orders@meridian.example")).toBe("mailto:orders@meridian.example");
  });
});

describe("referral codes", () => {
  it("takes a numeric referral query value as it is", () => {
    expect(referralCode("03069")).toBe("03069");
    expect(referralCode("12345", "search-more-results")).toBe("12345");
  });

  it("falls back to the spec's defaults by where the link was followed from", () => {
    expect(referralCode(null, "topic-stream")).toBe("03069");
    expect(referralCode(null, "home")).toBe("03069");
    expect(referralCode(null, "search-more-results")).toBe("02749");
    expect(referralCode(null)).toBe(DEFAULT_ADD_TO_CART_REFERRAL);
    expect(DEFAULT_ADD_TO_CART_REFERRAL).toMatch(/^\d{5}$/);
  });

  it("ignores values that are not digits, or absurdly long", () => {
    for (const bad of ["", "abc", "12a45", "-1234", "1.5", "<script>", "9".repeat(40)]) {
      expect(referralCode(bad), bad).toBe(DEFAULT_ADD_TO_CART_REFERRAL);
    }
    expect(referralCode("x", "home")).toBe("03069");
  });
});
