import { decodeQR } from "@paulmillr/qr/decode.js";
import { Resvg } from "@resvg/resvg-js";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { qrDrawing } from "~/server/desk/qr";
import { base32Decode, base32Encode, hotp, matchingStep, newTotpSecret, otpauthUri, timeStep, totpCode } from "~/server/desk/totp";
import { QrCode } from "~/app/components/desk/QrCode";

// The second factor's arithmetic (RFC 6238 over RFC 4226) with the clock given, and the QR
// code the enrolment page draws, read back as an authenticator app's camera would.

/** RFC 6238 Appendix B, the SHA-1 rows: the ASCII key "12345678901234567890", 8 digits. */
const RFC_6238_SHA1 = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
] as const;
const RFC_KEY = new TextEncoder().encode("12345678901234567890");
const at = (seconds: number) => new Date(seconds * 1000);

describe("TOTP (RFC 6238)", () => {
  it("gives Appendix B's SHA-1 values for its times, and their last six digits as the site's codes", () => {
    for (const [seconds, expected] of RFC_6238_SHA1) {
      expect(hotp(RFC_KEY, timeStep(at(seconds)), 8), `T = ${seconds}`).toBe(expected);
      expect(totpCode(base32Encode(RFC_KEY), at(seconds)), `T = ${seconds}`).toBe(expected.slice(2));
    }
  });

  it("reads and writes base32 as apps show it (RFC 4648), whatever the case or spacing typed", () => {
    expect(base32Encode(RFC_KEY)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")).toEqual(RFC_KEY);
    expect(base32Encode(new TextEncoder().encode("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("MZXW6YTBOI======")).toEqual(new TextEncoder().encode("foobar"));
    expect(base32Decode("not base32!")).toBeNull();
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it("accepts the code of the step before or after the clock's, and no further", () => {
    const secret = base32Encode(RFC_KEY);
    const now = at(1_700_000_015);
    const step = timeStep(now);
    for (const drift of [-1, 0, 1]) {
      const code = totpCode(secret, at((step + drift) * 30));
      expect(matchingStep(secret, code, now), `drift ${drift}`).toBe(step + drift);
    }
    for (const drift of [-2, 2]) expect(matchingStep(secret, totpCode(secret, at((step + drift) * 30)), now), `drift ${drift}`).toBeNull();
    expect(matchingStep(secret, "12345", now)).toBeNull();
    expect(matchingStep(secret, "abcdef", now)).toBeNull();
  });

  it("changes its code every 30 seconds", () => {
    const secret = newTotpSecret();
    expect(totpCode(secret, at(1_700_000_010))).toBe(totpCode(secret, at(1_700_000_039)));
    expect(timeStep(at(1_700_000_040))).toBe(timeStep(at(1_700_000_039)) + 1);
  });
});

describe("the enrolment QR code", () => {
  it("is an SVG whose picture an app reads as the otpauth address of the secret", () => {
    const uri = otpauthUri("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "Meridian Review", "ada.staff@example.org");
    expect(uri).toBe(
      "otpauth://totp/Meridian%20Review:ada.staff%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Meridian%20Review&algorithm=SHA1&digits=6&period=30",
    );
    const drawing = qrDrawing(uri);
    const svg = renderToStaticMarkup(<QrCode size={drawing.size} path={drawing.path} label="QR code" />).replace(
      "<svg ",
      '<svg xmlns="http://www.w3.org/2000/svg" ',
    );
    const rendered = new Resvg(svg, { fitTo: { mode: "width", value: drawing.size * 8 } }).render();
    expect(decodeQR({ width: rendered.width, height: rendered.height, data: rendered.pixels })).toBe(uri);
  });
});
