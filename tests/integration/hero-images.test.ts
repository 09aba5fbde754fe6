import http from "node:http";
import * as cheerio from "cheerio";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { COMMAND_LINE } from "~/server/desk/audit";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import type { Role } from "~/shared/staff-roles";
import { ApiContract } from "~/tests/helpers/api-contract";
import { uploadPicture, type PictureFile } from "~/tests/helpers/desk-staff";
import { gifOf, jpegOf, pngOf } from "~/tests/helpers/images";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Uploaded images in use (issue 38) through the production build: an editor uploads an article's
// hero and an author's photo on the desk's pages (multipart, no script), readers get them with
// srcset and og:image, bad uploads are refused with the page's message and never a 500, and the
// Admin API uploads and sets them with a key. Two instances share the database: what one stores
// the other serves.

const PASSWORD = "Lantern5!quay";
const REFUSED = "Upload a JPEG, PNG or WebP image of up to 20 MB.";
let connection: IsolatedConnection;
let db: Database;
let one: RunningServer;
let two: RunningServer;
let counter = 0;
let article: { id: number; slug: string; path: string };
let author: { slug: string; name: string };

beforeAll(async () => {
  connection = await isolatedConnection("hero");
  [one, two] = await Promise.all([
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
  ]);
  db = connect(connection);
  const row = await db
    .selectFrom("article")
    .select(["id", "slug", "year", "month"])
    .where("tier", "=", "article")
    .orderBy("published", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  article = { id: row.id, slug: row.slug, path: `/${row.year}/${String(row.month).padStart(2, "0")}/${row.slug}` };
  author = await db
    .selectFrom("author")
    .innerJoin("article_author", "article_author.author_id", "author.id")
    .select(["author.slug", "author.name"])
    .where("article_author.article_id", "=", row.id)
    .orderBy("article_author.position")
    .limit(1)
    .executeTakeFirstOrThrow();
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await Promise.all([one?.stop(), two?.stop()]);
  await connection?.drop();
});

/** A reader signed in through the sign-in page. */
async function signedInReader(name: string): Promise<{ reader: Reader; email: string }> {
  const email = `${name}.${++counter}.${process.pid}@example.org`;
  const made = await register(db, { firstName: name, lastName: "Hero", email, password: PASSWORD, optIn: false });
  if (!made.ok) throw new Error(made.reason);
  const reader = new Reader(one.url);
  const res = await reader.request("/sign-in", { form: { username: email, password: PASSWORD, redirectTo: "/" } });
  expect(res.status).toBe(303);
  return { reader, email };
}

/** A staff member with these roles, enrolled (their app's code read off the page) and inside the desk. */
async function staffMember(roles: Role[]): Promise<Reader> {
  const { reader, email } = await signedInReader(roles.join("-"));
  const added = await addStaff(db, COMMAND_LINE, email, roles, new Date());
  if (!added.ok) throw new Error(added.reason);
  const path = `/desk/enrol?token=${encodeURIComponent(added.token)}`;
  const page = await reader.page(path);
  const secret = page("main strong")
    .filter((_, el) => /^[A-Z2-7 ]{20,}$/.test(page(el).text()))
    .text()
    .replace(/ /g, "");
  const res = await reader.request(path, { form: { code: totpCode(secret, new Date()) } });
  expect(res.status).toBe(303);
  return reader;
}

const mainText = async (res: Response) =>
  cheerio
    .load(await res.text())("main")
    .text();

/** The article page as a guest sees it (cheerio), on a server. */
async function articlePage(server: RunningServer) {
  return new Reader(server.url).page(article.path);
}

let editor: Reader;
let heroId: string;

describe(`the desk's image page (${dialectName})`, () => {
  it("shows the drawn art, takes an uploaded JPEG with its alt text, and the article shows it with srcset and og:image", async () => {
    editor = await staffMember(["editor"]);
    const imagePath = `/desk/articles/${article.id}/image`;
    const before = await editor.page(imagePath);
    expect(before("h1").text()).toContain("Image:");
    expect(before("main figure img").attr("src")).toBe(`/art/article/${article.slug}.svg`);
    expect(before("form[enctype='multipart/form-data'] input[type=file][name=file]").attr("accept")).toBe(
      "image/jpeg,image/png,image/webp",
    );
    expect(before("button").text()).not.toContain("Remove the image");
    const guest = await articlePage(one);
    expect(guest("header picture")).toHaveLength(0);
    expect(guest("header img").first().attr("src")).toBe(`/art/article/${article.slug}.svg`);
    expect(guest("meta[property='og:image']").attr("content")).toBe(`${one.url}/art/card/article/${article.slug}.png`);

    const res = await uploadPicture(
      editor,
      imagePath,
      { bytes: await jpegOf(2400, 1350), name: "harbour.txt", type: "text/plain" },
      "A harbour",
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(imagePath);
    const after = await editor.page(imagePath);
    expect(after("[role=status]").text()).toBe("The image is on the article now.");
    const img = after("main figure picture img");
    heroId = /^\/images\/([0-9a-f-]{36})\//.exec(img.attr("src") ?? "")![1]!;
    expect(img.attr("alt")).toBe("A harbour");
    expect(after("button").text()).toContain("Remove the image");
    // The notice is said once.
    expect((await editor.page(imagePath))("[role=status]")).toHaveLength(0);

    const page = await articlePage(one);
    const picture = page("header picture");
    expect(picture).toHaveLength(1);
    const widths = [320, 640, 960, 1280, 1920];
    const srcset = (ext: string) => widths.map((w) => `/images/${heroId}/${w}.${ext} ${w}w`).join(", ");
    expect(
      picture
        .find("source")
        .map((_, s) => [[page(s).attr("type"), page(s).attr("srcset")]])
        .get(),
    ).toEqual([
      ["image/avif", srcset("avif")],
      ["image/webp", srcset("webp")],
    ]);
    const heroImg = picture.find("img");
    expect([heroImg.attr("src"), heroImg.attr("srcset"), heroImg.attr("alt")]).toEqual([
      `/images/${heroId}/960.jpg`,
      srcset("jpg"),
      "A harbour",
    ]);
    expect([heroImg.attr("width"), heroImg.attr("height")]).toEqual(["1920", "1080"]);
    expect(heroImg.attr("sizes")).toBe("(min-width: 1025px) 42rem, 100vw");
    expect(page("meta[property='og:image']").attr("content")).toBe(`${one.url}/images/${heroId}/1280.jpg`);
    expect(page("meta[property='og:image:type']").attr("content")).toBe("image/jpeg");
    expect(page("meta[property='og:image:width']").attr("content")).toBe("1280");
    expect(page("meta[property='og:image:height']").attr("content")).toBe("720");
    expect(page("meta[name='twitter:image']").attr("content")).toBe(`${one.url}/images/${heroId}/1280.jpg`);
    const og = await fetch(page("meta[property='og:image']").attr("content")!);
    expect(og.status).toBe(200);
    expect((await sharp(Buffer.from(await og.arrayBuffer())).metadata()).format).toBe("jpeg");
    // Cards on the home page show it too.
    const home = await new Reader(one.url).page("/");
    expect(home(`a[href='${article.path}']`).length).toBeGreaterThan(0);
    expect(home(`picture img[src='/images/${heroId}/960.jpg']`).length).toBeGreaterThan(0);
  });

  it("has the image uploaded through one instance served by the other, whose article page shows it within seconds", async () => {
    const res = await fetch(`${two.url}/images/${heroId}/640.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(640);
    await expect
      .poll(async () => (await articlePage(two))(`header picture img`).attr("src"), { timeout: 5_000, interval: 250 })
      .toBe(`/images/${heroId}/960.jpg`);
  });

  it.each<[string, () => Promise<PictureFile>, number]>([
    ["a GIF", async () => ({ bytes: await gifOf(400, 300), name: "a.jpg", type: "image/jpeg" }), 422],
    [
      "an HTML page named as a JPEG",
      async () => ({ bytes: Buffer.from("<!doctype html><script>alert(1)</script>"), name: "x.jpg", type: "image/jpeg" }),
      422,
    ],
    ["a JPEG cut short", async () => ({ bytes: (await jpegOf(800, 600)).subarray(0, 2_000), name: "cut.jpg", type: "image/jpeg" }), 422],
    [
      "a 25 MB file",
      async () => ({ bytes: Buffer.concat([await jpegOf(200, 100), Buffer.alloc(25 * 1024 * 1024)]), name: "big.jpg", type: "image/jpeg" }),
      413,
    ],
    ["no file", async () => null, 400],
  ])("refuses %s with the form's message, keeping the alt text", async (_, file, status) => {
    const res = await uploadPicture(editor, `/desk/articles/${article.id}/image`, await file(), "Kept alt");
    expect(res.status).toBe(status);
    const page = cheerio.load(await res.text());
    expect(page("[role=alert]").text()).toBe(REFUSED);
    // A body refused for its size is not read: its alt text is not known.
    expect(page("#picture-alt").attr("value")).toBe(status === 413 ? "" : "Kept alt");
    // The hero is still the one uploaded.
    expect(page("main figure picture img").attr("src")).toBe(`/images/${heroId}/960.jpg`);
  });

  it("refuses a chunked body once it passes 20 MB and its form, without reading the rest", async () => {
    const { hostname, port } = new URL(one.url);
    const boundary = "----heroTest";
    const req = http.request({
      hostname,
      port,
      path: `/desk/articles/${article.id}/image`,
      method: "POST",
      agent: false,
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Transfer-Encoding": "chunked",
        Cookie: editor.cookieHeader(),
        Origin: one.url,
      },
    });
    const total = 64 * 1024 * 1024;
    let sent = 0;
    let answered = false;
    const answer = new Promise<{ status: number; text: string; sentBefore: number }>((resolve, reject) => {
      req.on("response", (res) => {
        answered = true;
        const sentBefore = sent;
        let text = "";
        res.setEncoding("utf8").on("data", (part: string) => (text += part));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode!, text, sentBefore });
        });
      });
      req.on("error", (error) => (answered ? undefined : reject(error)));
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0xff);
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
    const { status, text, sentBefore } = await answer;
    expect(status).toBe(413);
    expect(cheerio.load(text)("[role=alert]").text()).toBe(REFUSED);
    expect(sentBefore).toBeLessThan(total);
    expect((await fetch(`${one.url}/healthz`)).status).toBe(200);
  });

  it("refuses a post from another site (403) and is the site's 404 to readers and guests; 403 to a role without articles", async () => {
    const jpeg = { bytes: await jpegOf(400, 300), name: "a.jpg", type: "image/jpeg" };
    const path = `/desk/articles/${article.id}/image`;
    const foreign = await uploadPicture(editor, path, jpeg, "", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect(foreign.status).toBe(403);
    expect(await mainText(foreign)).toContain("This form was sent from another site");

    const { reader } = await signedInReader("plain");
    for (const asker of [reader, new Reader(one.url)]) {
      expect((await asker.request(path)).status).toBe(404);
      expect((await uploadPicture(asker, path, jpeg)).status).toBe(404);
      expect((await asker.request(`/desk/authors/${author.slug}/photo`)).status).toBe(404);
    }
    const service = await staffMember(["service"]);
    expect((await service.request(path)).status).toBe(403);
    expect((await uploadPicture(service, path, jpeg)).status).toBe(403);
    expect((await service.request(path, { form: { intent: "remove" } })).status).toBe(403);
    expect((await editor.request("/desk/articles/999999/image")).status).toBe(404);
    expect((await editor.request("/desk/authors/no-such-author/photo")).status).toBe(404);
    // The hero is unchanged by all of it.
    expect((await editor.page(path))("main figure picture img").attr("src")).toBe(`/images/${heroId}/960.jpg`);
  });

  it("removes the image: the article shows its drawn art again", async () => {
    const path = `/desk/articles/${article.id}/image`;
    const res = await editor.request(path, { form: { intent: "remove" } });
    expect(res.status).toBe(303);
    const after = await editor.page(path);
    expect(after("[role=status]").text()).toBe("The image is removed: the article shows its drawn art again.");
    expect(after("main figure img").attr("src")).toBe(`/art/article/${article.slug}.svg`);
    const page = await articlePage(one);
    expect(page("header picture")).toHaveLength(0);
    expect(page("header img").first().attr("src")).toBe(`/art/article/${article.slug}.svg`);
    expect(page("meta[property='og:image']").attr("content")).toBe(`${one.url}/art/card/article/${article.slug}.png`);
  });

  it("draws an article without a hero from its subject and type: a data visual's art is a chart", async () => {
    const visual = await db
      .selectFrom("article")
      .select("slug")
      .where("content_type", "=", "Data Visual")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const art = await (await fetch(`${one.url}/art/article/${visual.slug}.svg`)).text();
    expect(art).toContain("<polyline");
    // An address that names no article still gets a picture, and one that says nothing of a chart.
    const unknown = await fetch(`${one.url}/art/article/no-article-has-this-slug.svg`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).not.toContain("<polyline");
  });

  it("puts an author's uploaded photo beside their bio on their articles, where their initials stood", async () => {
    const before = (await articlePage(one))("#about-authors").parent();
    expect(before.find("picture")).toHaveLength(0);
    const initials = author.name
      .split(/\s+/)
      .filter((_, i, words) => i === 0 || i === words.length - 1)
      .map((word) => word[0]!.toUpperCase())
      .join("");
    expect(before.children("div").first().find("svg[aria-hidden=true] text").text()).toBe(initials);
    const path = `/desk/authors/${author.slug}/photo`;
    expect((await editor.page(path))("h1").text()).toBe(`Photo: ${author.name}`);
    const res = await uploadPicture(editor, path, { bytes: await pngOf(500, 600), name: "me.png", type: "image/png" }, author.name);
    expect(res.status).toBe(303);
    const desk = await editor.page(path);
    expect(desk("[role=status]").text()).toBe("The photo is on the author's articles now.");
    const photoId = /^\/images\/([0-9a-f-]{36})\//.exec(desk("main figure picture img").attr("src") ?? "")![1]!;
    const page = await articlePage(one);
    const photo = page("#about-authors").parent().find("picture img");
    expect(photo.attr("src")).toBe(`/images/${photoId}/500.jpg`);
    expect(photo.attr("alt")).toBe(author.name);
    expect([photo.attr("width"), photo.attr("height")]).toEqual(["500", "600"]);
    expect(page("#about-authors").parent().children("div").first().find("svg")).toHaveLength(0);
  });
});

describe(`the Admin API's images (${dialectName})`, () => {
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const apiUpload = (key: string, bytes: Buffer, alt?: string) => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(bytes)]), "upload.bin");
    if (alt !== undefined) form.set("alt", alt);
    return fetch(`${one.url}/desk/api/images`, { method: "POST", body: form, headers: bearer(key) });
  };

  it("uploads an image (201, then 200 for the same file), makes it an article's hero and removes it, as documented", async () => {
    const contract = await ApiContract.load(one.url);
    const { key } = await createApiKey(db, COMMAND_LINE, "Hero tool", ["editor"], new Date());
    const bytes = await jpegOf(1000, 500);
    const created = await apiUpload(key, bytes, "Two discs");
    expect(created.status).toBe(201);
    const image = (await contract.check("/desk/api/images", "post", created)) as {
      id: string;
      width: number;
      height: number;
      alt: string;
      urls: Record<string, string>;
    };
    expect(image).toMatchObject({ width: 1000, height: 500, alt: "Two discs" });
    expect(image.urls.avif).toBe([320, 640, 960, 1000].map((w) => `${one.url}/images/${image.id}/${w}.avif ${w}w`).join(", "));
    expect(image.urls.jpeg!.split(", ")).toHaveLength(4);
    const again = await apiUpload(key, bytes);
    expect(again.status).toBe(200);
    expect(((await contract.check("/desk/api/images", "post", again)) as { id: string }).id).toBe(image.id);

    const path = `/desk/api/articles/${article.id}/image`;
    const put = (body: unknown, to = path) =>
      fetch(`${one.url}${to}`, {
        method: "PUT",
        body: JSON.stringify(body),
        headers: { ...bearer(key), "Content-Type": "application/json" },
      });
    const set = await put({ imageId: image.id });
    expect(set.status).toBe(200);
    expect(await contract.check("/desk/api/articles/{id}/image", "put", set)).toEqual({ id: article.id, image });
    await expect
      .poll(async () => (await articlePage(two))("header picture img").attr("src"), { timeout: 5_000, interval: 250 })
      .toBe(`/images/${image.id}/960.jpg`);
    const unknownImage = await put({ imageId: "no-such-image" });
    expect(unknownImage.status).toBe(400);
    expect(((await contract.check("/desk/api/articles/{id}/image", "put", unknownImage)) as { fields: object }).fields).toHaveProperty(
      "imageId",
    );
    const unknownArticle = await put({ imageId: image.id }, "/desk/api/articles/999999/image");
    expect(unknownArticle.status).toBe(404);
    await contract.check("/desk/api/articles/{id}/image", "put", unknownArticle);
    expect((await put({})).status).toBe(400);
    const removed = await put({ imageId: null });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ id: article.id, image: null });

    const audit = await db.selectFrom("desk_audit").select(["action", "actor"]).where("action", "=", "article.image").execute();
    expect(audit.filter((row) => row.actor.startsWith("API key Hero tool"))).toHaveLength(2);
  });

  it("refuses what is not an image (400, with the file's field), an oversized body (413), a body that is not multipart (400), and keys of other roles (403)", async () => {
    const contract = await ApiContract.load(one.url);
    const { key } = await createApiKey(db, COMMAND_LINE, "Hero tool 2", ["editor"], new Date());
    const gif = await apiUpload(key, await gifOf(50, 50));
    expect(gif.status).toBe(400);
    expect(await contract.check("/desk/api/images", "post", gif)).toMatchObject({
      code: "invalid_input",
      message: REFUSED,
      fields: { file: [REFUSED] },
    });
    const big = await apiUpload(key, Buffer.alloc(21 * 1024 * 1024, 0xff));
    expect(big.status).toBe(413);
    await contract.check("/desk/api/images", "post", big);
    const json = await fetch(`${one.url}/desk/api/images`, {
      method: "POST",
      body: JSON.stringify({ file: "x" }),
      headers: { ...bearer(key), "Content-Type": "application/json" },
    });
    expect(json.status).toBe(400);
    await contract.check("/desk/api/images", "post", json);
    const { key: service } = await createApiKey(db, COMMAND_LINE, "Service tool", ["service"], new Date());
    const refused = await apiUpload(service, await jpegOf(300, 200));
    expect(refused.status).toBe(403);
    await contract.check("/desk/api/images", "post", refused);
    const put = await fetch(`${one.url}/desk/api/articles/${article.id}/image`, {
      method: "PUT",
      body: JSON.stringify({ imageId: null }),
      headers: { ...bearer(service), "Content-Type": "application/json" },
    });
    expect(put.status).toBe(403);
    expect((await fetch(`${one.url}/desk/api/images`, { method: "POST" })).status).toBe(401);
  });
});
