import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config";
import { mindstoneToken } from "~/server/learning/mindstone";
import { loadSecrets } from "~/server/secrets";

// The Mindstone token's secret and signature (server/learning/mindstone.ts, server/secrets.ts).

const folders: string[] = [];
const dataFolder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mindstone-"));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the Mindstone token", () => {
  it("is an HS256 JWT with sub, iat and exp an hour later, which the secret verifies and another does not", () => {
    const secret = "s".repeat(40);
    const token = mindstoneToken("user-1", secret, new Date("2026-03-01T10:00:00.900Z"));
    const [header, payload, signature] = token.split(".");
    const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown;
    expect(decode(header!)).toEqual({ alg: "HS256", typ: "JWT" });
    const iat = Date.parse("2026-03-01T10:00:00Z") / 1000;
    expect(decode(payload!)).toEqual({ sub: "user-1", iat, exp: iat + 3600 });
    const sign = (key: string) => crypto.createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
    expect(signature).toBe(sign(secret));
    expect(signature).not.toBe(sign("t".repeat(40)));
  });
});

describe("its secret", () => {
  it("is generated into the data folder when not given, and the same one is read on the next start", () => {
    const dir = dataFolder();
    const first = loadSecrets(dir, {});
    expect(first.mindstoneJwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8")).mindstoneJwtSecret).toBe(first.mindstoneJwtSecret);
    expect(loadSecrets(dir, {}).mindstoneJwtSecret).toBe(first.mindstoneJwtSecret);
    expect(first.mindstoneJwtSecret).not.toBe(first.sessionSecret);
  });

  it("is added to a data folder whose secrets were generated before there was one, keeping the others", () => {
    const dir = dataFolder();
    const older = { sessionSecret: "a".repeat(43), paymentWebhookSecret: "b".repeat(43) };
    fs.writeFileSync(path.join(dir, "secrets.json"), JSON.stringify(older));
    const secrets = loadSecrets(dir, {});
    expect(secrets).toMatchObject(older);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"))).toEqual({
      ...older,
      mindstoneJwtSecret: secrets.mindstoneJwtSecret,
    });
  });

  it("is MINDSTONE_JWT_SECRET when given, which is then not written to the folder, and must be 32 characters or more", () => {
    const dir = dataFolder();
    const given = "m".repeat(32);
    expect(loadSecrets(dir, { MINDSTONE_JWT_SECRET: given }).mindstoneJwtSecret).toBe(given);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8")).mindstoneJwtSecret).toBeUndefined();
    expect(parseConfig({ MINDSTONE_JWT_SECRET: given }).MINDSTONE_JWT_SECRET).toBe(given);
    expect(() => parseConfig({ MINDSTONE_JWT_SECRET: "short" })).toThrow(/MINDSTONE_JWT_SECRET must be at least 32 characters/);
  });
});
