import type { AppLoadContext } from "@remix-run/node";
import type { User } from "~/server/accounts/users";
import { staffMemberFor, type StaffMember } from "~/server/desk/staff";
import { clientIp } from "~/server/http/client-ip";
import { config } from "~/server/config";
import { db } from "./db.server";
import type { Database } from "~/server/db/connection";
import { currentRequestId, requestIdFrom } from "~/server/log";
import type { Reader } from "~/server/paywall/offers";
import { readerForSession, type SignedInReader } from "~/server/readers/signed-in";
import { createCart, userCartId } from "~/server/store/cart";
import type { SubscriberStatus } from "~/server/subscriptions/entitlements";
import { guestCartCookie, guestCartId } from "~/app/lib/store/cart.server";
import { redirect } from "~/app/lib/http/responses.server";
import { sessionToken } from "./session.server";
import { knownVisitorId, newVisitor } from "./visitor.server";
import { ReaderParts } from "~/app/lib/http/reader-parts.server";
import { pageCacheOn } from "~/app/lib/http/page-cache.server";

// Who is asking, and with what, for one request (ADR 062). Made once per request: by the
// production server before Remix runs (entry.server's getLoadContext), or on first use where no
// server made it (remix-serve). Each fact is looked up when first asked for, once.

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The connection's own remote address, given by the production server (server/http). */
    clientAddress?: string;
    /** This request's context, made by getLoadContext or on first use. */
    requestContext?: RequestContext;
  }
}

/** A reader known by their session or visitor cookie. */
export type KnownReader = Extract<Reader, { kind: "guest" | "registered" | "subscriber" }>;

export interface AskingReader {
  reader: KnownReader;
  user: User | undefined;
  subscriber: SubscriberStatus | null;
  /** Set-Cookie for a guest seen for the first time (their new visitor id). */
  setCookie?: string;
}

export interface RequestContext {
  /** The balancer's X-Request-Id, or the one the production server made; the log names it. */
  readonly requestId: string;
  /**
   * The reader's network address: from the header our proxy sets when CLIENT_IP_HEADER is
   * configured, else the connection's remote address that the production server passes in the
   * load context. Null under `remix-serve` without a proxy header, which passes no address.
   */
  readonly clientAddress: string | null;
  /** The browser's User-Agent as it sent it, if it did (a new session records it, ADR 089). */
  readonly userAgent: string | null;
  /** The signed-in reader as staff (roles, second factor, desk session: ADR 072); null for a reader without a role. */
  staff(): Promise<StaffMember | null>;
  db(): Promise<Database>;
  /** The session cookie's token, if the request carries one. */
  sessionToken(): Promise<string | undefined>;
  /** The signed-in reader's account, cart and subscriptions, read together once (ADR 095). */
  account(): Promise<SignedInReader | undefined>;
  /** The signed-in reader. */
  user(): Promise<User | undefined>;
  /** The signed-in reader's subscription, if they have one now. */
  subscriber(): Promise<SubscriberStatus | null>;
  /** After a subscription was activated while answering: the next `account()` and `subscriber()` read the reader again. */
  subscriberChanged(): void;
  /** The visitor cookie's id, if the request carries a valid one. */
  knownVisitorId(): Promise<string | undefined>;
  /** The visitor's id, making a new one (and the Set-Cookie that keeps it) for a new visitor. */
  visitor(): Promise<{ id: string; setCookie?: string }>;
  /** Who is asking: a subscriber, a registered reader, or a guest known by their visitor cookie. */
  reader(): Promise<AskingReader>;
  /** The guest cart the browser's cart cookie names, if it still exists (looked up on each call: signing in merges it away). */
  guestCartId(): Promise<string | null>;
  /** The cart this request shops with (the reader's own, else the guest cookie's), or null if none yet. */
  cartId(): Promise<string | null>;
  /** The cart to put something in, made on first use; a new guest cart comes with the Set-Cookie that keeps it. */
  cartForWriting(): Promise<{ cartId: string; setCookie?: string }>;
  /** The signed-in reader's own values as the document renders them: marks when the page cache is on (ADR 096). */
  readonly readerParts: ReaderParts;
}

/** A lookup made on first call, then answered from memory. */
function once<T>(lookUp: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => (answer ??= lookUp());
}

function createRequestContext(request: Request, loadContext: AppLoadContext): RequestContext {
  const header = config().CLIENT_IP_HEADER;
  const token = once(() => sessionToken(request));
  const lookUpAccount = async () => {
    const found = await token();
    return found ? readerForSession(await db(), found) : undefined;
  };
  let account = once(lookUpAccount);
  const user = async () => (await account())?.user;
  const known = once(() => knownVisitorId(request));
  const visitor = once(async (): Promise<{ id: string; setCookie?: string }> => {
    const id = await known();
    return id ? { id } : newVisitor();
  });
  const guestCart = async () => guestCartId(request, await db());
  let cartId = once(async () => {
    const signedIn = await account();
    return signedIn ? signedIn.cartId : guestCart();
  });
  return {
    requestId: currentRequestId() ?? requestIdFrom(request.headers.get("X-Request-Id") ?? undefined),
    clientAddress: header ? clientIp(request, header) : (loadContext.clientAddress ?? null),
    userAgent: request.headers.get("User-Agent"),
    staff: once(async () => {
      const [signedIn, found] = await Promise.all([user(), token()]);
      return signedIn && found ? staffMemberFor(await db(), signedIn, found, new Date()) : null;
    }),
    db,
    sessionToken: token,
    account: () => account(),
    user,
    subscriber: async () => (await account())?.subscriber ?? null,
    subscriberChanged: () => (account = once(lookUpAccount)),
    knownVisitorId: known,
    visitor,
    reader: once(async () => {
      const signedIn = await account();
      if (signedIn) {
        const { user, subscriber } = signedIn;
        return { reader: { kind: subscriber ? "subscriber" : "registered", userId: user.id }, user, subscriber };
      }
      const guest = await visitor();
      return {
        reader: { kind: "guest", visitorId: guest.id, network: null },
        user: undefined,
        subscriber: null,
        setCookie: guest.setCookie,
      };
    }),
    guestCartId: guestCart,
    cartId: () => cartId(),
    readerParts: new ReaderParts(loadContext.documentRequest === true && pageCacheOn()),
    async cartForWriting() {
      const database = await db();
      const signedIn = await user();
      const existing = signedIn ? await userCartId(database, signedIn.id, true) : await cartId();
      const made = existing ? undefined : await createCart(database, null);
      const id = existing ?? made!;
      cartId = () => Promise.resolve(id);
      return made ? { cartId: made, setCookie: await guestCartCookie().serialize(made) } : { cartId: id };
    },
  };
}

/**
 * Made by the production server for each request before Remix runs (build.entry.module's
 * getLoadContext, called by server/http/handler.ts).
 */
export function getLoadContext(request: Request, loadContext: AppLoadContext): AppLoadContext {
  loadContext.requestContext = createRequestContext(request, loadContext);
  return loadContext;
}

/** What a loader or action is given that its request's context is found from. */
export interface RequestArgs {
  request: Request;
  context: AppLoadContext;
}

/** This request's context, from a loader's or action's arguments: the server's, or made now and kept for the request. */
export function requestContext({ request, context }: RequestArgs): RequestContext {
  return (context.requestContext ??= createRequestContext(request, context));
}

/** The signed-in reader, or a redirect to sign-in that comes back here afterwards. */
export async function requireUser(args: RequestArgs): Promise<User> {
  const user = await requestContext(args).user();
  if (user) return user;
  const url = new URL(args.request.url);
  throw redirect(`/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}
