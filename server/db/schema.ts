import type { Generated } from "kysely";
import type { ArticleStatus } from "~/shared/article-fields";
import type { CartLineKind, LineType } from "~/shared/product-types";
import type { MediaKind } from "~/shared/media-files";
import type { ImageVariantFormat } from "~/shared/uploaded-images";

export type { CartLineKind, LineType };

// Table types shared by both dialects. Flags are stored as 0/1 integers and dates as
// ISO-8601 text so that SQLite and PostgreSQL sort and compare them the same way.
export type Flag = 0 | 1;

export interface TopicTable {
  id: number;
  slug: string;
  name: string;
  description: string;
  subscriber_only: Flag;
  executive_only: Flag;
  /** The subject the topic belongs to; null for a subject itself. */
  subject_id: number | null;
  /** Counts the desk's saves; a save names the version it read (ADR 078). */
  version: Generated<number>;
  /** The last save at the desk or through the Admin API: when, and who (as the conflict message names them). */
  updated_at: string | null;
  updated_by_name: string | null;
}

/** A slug a topic had before it was renamed (ADR 078): its pages answer 301 to the topic's page now. */
export interface TopicFormerSlugTable {
  slug: string;
  topic_id: number;
  created_at: string;
}

export interface AuthorTable {
  id: number;
  slug: string;
  name: string;
  role: string;
  bio: string;
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** An uploaded photo (image.id); none shows no photo. */
  photo_image_id?: string | null;
}

export interface SeriesTable {
  id: number;
  slug: string;
  title: string;
}

export type ContentTier = "article" | "top50" | "cases" | "visual-library";

export interface ArticleTable {
  id: number;
  slug: string;
  year: number;
  month: number;
  title: string;
  dek: string;
  sub_dek: string;
  summary: string;
  body: string;
  content_type: string;
  published: string;
  tier: ContentTier;
  primary_topic_id: number;
  series_id: number | null;
  series_part: number | null;
  word_count: number;
  hero_image_id: string | null;
}

/**
 * Every article in every state (ADR 076). Readers never read it: they read the view `article`
 * (ArticleTable), its published rows. Only the desk (server/desk/articles), the seeders and the
 * withdrawn-or-moved lookup of the article page read or write it.
 */
export interface ArticleRecordTable {
  id: number;
  slug: string;
  year: number;
  month: number;
  title: string;
  dek: string;
  sub_dek: string;
  summary: string;
  body: string;
  content_type: string;
  /** The date the article carries (YYYY-MM-DD): its URL's year and month, also while a draft. */
  published: string;
  tier: ContentTier;
  primary_topic_id: number;
  series_id: number | null;
  series_part: number | null;
  word_count: number;
  status: Generated<ArticleStatus>;
  /** Counts the saves, from 1: a save names the version it read (no lost update). */
  version: Generated<number>;
  /** When a scheduled article is to be published (ISO time); null in any other state. */
  publish_at: string | null;
  /** The last change at the desk (ISO time), and who made it (their id and name then); null as seeded. */
  updated_at: string | null;
  updated_by: string | null;
  updated_by_name: string | null;
  /** The uploaded hero image (image.id); null shows the generated art. Changed on its own, not by a save. */
  hero_image_id?: string | null;
}

/** One save of an article: its fields (ArticleFields) and state then, as JSON. */
export interface ArticleRevisionTable {
  id: string;
  article_id: number;
  version: number;
  fields: string;
  saved_by: string | null;
  saved_by_name: string;
  saved_at: string;
  /** 1 for a revision autosaves made (ADR 085): the editor's later autosaves may fold into it. */
  autosaved: Generated<Flag>;
}

/** An address an article had before its slug or date changed, answering 301 to the current one. */
export interface ArticleRedirectTable {
  path: string;
  article_id: number;
  created_at: string;
}

/** One row (id 1): counted up by every change readers can see, in the change's transaction. */
export interface ContentGenerationTable {
  id: number;
  generation: number;
  changed_at: string | null;
}

export interface ArticleAuthorTable {
  article_id: number;
  author_id: number;
  position: number;
}

export interface ArticleTopicTable {
  article_id: number;
  topic_id: number;
  position: number;
  /** The article's publication date, copied so that a topic's page is one index range (ADR 098). */
  published: string;
}

/** How many articles are published: one row, kept by triggers on article_record (ADR 098). */
export interface PublishedArticleTallyTable {
  id: number;
  articles: number;
}

export interface StreamEntryTable {
  stream: string;
  article_id: number;
  published: string;
}

export interface MagazineIssueTable {
  id: number;
  code: string;
  year: number;
  month: number;
  month_label: string;
  title: string;
  summary: string;
  /** Counts the desk's saves, from 1: a save names the version it read (no lost update). */
  version: Generated<number>;
  /** The last save at the desk or through the Admin API (ISO time) and who made it; null as seeded. */
  updated_at: string | null;
  updated_by_name: string | null;
  /** An uploaded cover (image.id); none shows the drawn cover. */
  cover_image_id?: string | null;
}

/** A code an issue had before it was changed at the desk: its old page answers 301 to the new one. */
export interface IssueFormerCodeTable {
  code: string;
  issue_id: number;
  created_at: string;
}

export interface IssueFeatureTable {
  issue_id: number;
  position: number;
  title: string;
  article_id: number | null;
}

export interface ProductTable {
  id: number;
  slug: string;
  title: string;
  product_type: string;
  topic_id: number;
  authors: string;
  summary: string;
  description: string;
  published: string;
  pages: number;
  /** Counts the desk's saves (ADR 091); a save names the version it read. */
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** An uploaded cover (ADR 077) shown instead of the drawn one. */
  cover_image_id: string | null;
}

export interface ProductSectionTable {
  product_id: number;
  position: number;
  title: string;
  body: string;
}

export interface ProductArticleTable {
  product_id: number;
  position: number;
  article_id: number;
}

/** "Better together": companion_id is shown with product_id, at position. */
export interface ProductCompanionTable {
  product_id: number;
  position: number;
  companion_id: number;
}

export interface ProductAvailabilityTable {
  id: number;
  product_id: number;
  format: string;
  code: string;
  language: string;
  list_price_cents: number;
  line_type: LineType;
  /** A: on sale; F: coming soon (from available_date); R: retired, no longer sold (ADR 091). */
  status: AvailabilityStatus;
  available_date: string | null;
  permissions_available: Flag;
  volume_pricing: Flag;
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** An uploaded file buyers download instead of the one made from the product's texts. */
  download_file_id: string | null;
  /** When a coming-soon format's pre-orders are charged (ADR 092). */
  preorder_charge: Generated<PreorderCharge>;
}

/** "payment": with the order; "ship": on the availability date, to the card the checkout saved. */
export type PreorderCharge = "payment" | "ship";

export type AvailabilityStatus = "A" | "F" | "R";

/** An availability's price from `starts_at` on (ADR 091): the latest started change is in force. */
export interface PriceChangeTable {
  id: string;
  availability_id: number;
  price_cents: number;
  starts_at: string;
  created_at: string;
  /** Who scheduled it, as the audit log names them. */
  created_by: string;
}

export interface VideoTable {
  id: number;
  slug: string;
  title: string;
  description: string;
  duration_seconds: number;
  published: string;
  topic_id: number;
  tags: string;
  subscriber_only: Flag;
  /** Counts the saves at the desk (ADR 083); a save names the version it read. */
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** The uploaded video file (media_file.id); none plays the seed file from content/video. */
  media_file_id: string | null;
  /** The uploaded captions; none serves the seed captions. */
  captions_file_id: string | null;
}

export interface PlaylistTable {
  id: number;
  slug: string;
  name: string;
}

export interface PlaylistVideoTable {
  playlist_id: number;
  video_id: number;
  position: number;
}

export interface PodcastSeriesTable {
  id: number;
  slug: string;
  title: string;
  description: string;
  feed_type: "serial" | "episodic";
  hosts: string;
}

export interface PodcastEpisodeTable {
  id: number;
  series_id: number;
  title: string;
  description: string;
  pub_date: string;
  season: number;
  episode: number;
  episode_type: "full" | "bonus" | "trailer";
  duration_seconds: number;
  /** Counts the saves at the desk (ADR 083); a save names the version it read. */
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** The uploaded audio (media_file.id); none plays the seed file from content/podcast. */
  audio_file_id: string | null;
}

export interface NewsletterTable {
  id: number;
  slug: string;
  name: string;
  frequency: string;
  description: string;
  subscriber_only: Flag;
}

export type NewsletterIssueStatus = "draft" | "queued" | "sending" | "sent";

/** An issue of a newsletter (ADR 084): composed at the desk (or by the command line's template), then sent once. */
export interface NewsletterIssueTable {
  id: number;
  newsletter_id: number;
  status: NewsletterIssueStatus;
  subject: string;
  preheader: string;
  /** In the site's Markdown subset. */
  intro: string;
  /** Counts the saves, from 1: a save names the version it read (no lost update). */
  version: number;
  created_at: string;
  created_by_name: string;
  updated_at: string;
  updated_by_name: string;
  /** When a queued issue is to go (ISO time: now, or a scheduled time), and who sent it when. */
  send_at: string | null;
  queued_at: string | null;
  queued_by_name: string | null;
  /** When the jobs listed its recipients, and when its last delivery was done. */
  started_at: string | null;
  sent_at: string | null;
  /** Counted when it started (recipients) and when it was done (the rest). */
  recipient_count: number | null;
  sent_count: number | null;
  failed_count: number | null;
  skipped_count: number | null;
}

/** An issue's articles in order. */
export interface NewsletterIssueArticleTable {
  issue_id: number;
  position: number;
  article_id: number;
}

export type NewsletterDeliveryState = "pending" | "claimed" | "sent" | "failed" | "skipped";

/** One recipient's copy of an issue: claimed by a sender's batch, then sent, failed or skipped. */
export interface NewsletterDeliveryTable {
  issue_id: number;
  user_id: string;
  state: NewsletterDeliveryState;
  /** The batch that holds it, until `claimed_until` (ISO time). */
  claim: string | null;
  claimed_until: string | null;
  done_at: string | null;
  /** Why the mail server refused it. */
  error: string | null;
}

export interface MarketingCampaignTable {
  id: string;
  name: string;
  description: string;
}

export interface ReadingListTable {
  id: number;
  slug: string;
  name: string;
  description: string;
  /** Counts the desk's saves, from 1: a save names the version it read (no lost update). */
  version: Generated<number>;
  /** The last change at the desk (ISO time) and who made it (their audit label); null as seeded. */
  updated_at: string | null;
  updated_by_name: string | null;
}

/** One row (id 1): the version of the home page's chosen stories (home_pick), and its last change. */
export interface HomeCurationTable {
  id: number;
  version: number;
  updated_at: string | null;
  updated_by_name: string | null;
}

/** A story an editor chose for the home page: position 0 is the lead, the next are pinned, in order. */
export interface HomePickTable {
  position: number;
  article_id: number;
}

/** A learning path through a reading list (server/learning/courses.ts). */
export interface CourseTable {
  slug: string;
  title: string;
  description: string;
  reading_list_id: number;
}

export interface ReadingListItemTable {
  list_id: number;
  article_id: number;
  position: number;
}

/** One searchable thing (server/search, ADR 030). The key orders documents by publication. */
export interface SearchDocumentTable {
  id: number;
  kind: string;
  ref_id: number;
  published: string;
  title: string;
  url: string;
  label: string;
  image: string;
  teaser: string;
  /** PostgreSQL only: the title's words as written, for auto-suggest. */
  title_words?: string;
}

/** PostgreSQL only: what a search reads of each match, in a narrow row (migration 020); SQLite keeps the words in FTS5. */
export interface SearchMatchTable {
  id: number;
  /** The document's topics, counted with its matches (search_document_topic holds them too). */
  topic_ids: number[];
  /** The title's words, stemmed, to rank title matches first. */
  heading_words: string;
  /** The weighted words of title, summary and body, stored out of line. */
  words: string;
}

export interface SearchDocumentTopicTable {
  document_id: number;
  topic_id: number;
}

export interface SeedStateTable {
  name: string;
  completed_at: string;
}

export type UserStatus = "active" | "restricted";

export interface AppUserTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: Generated<string>;
  password_hash: string;
  opt_in: Generated<Flag>;
  industry: Generated<string>;
  job_title: Generated<string>;
  company_size: Generated<string>;
  status: Generated<UserStatus>;
  created_at: string;
  updated_at: string;
  last_visit_at: string | null;
  email_verified_at: string | null;
}

export interface UserSessionTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** The browser that started it (its User-Agent, cut short), for the reader's own list; null when none was sent. */
  user_agent: string | null;
}

export interface LoginFailureTable {
  email: string;
  failures: number;
  lockouts: Generated<number>;
  first_lockout_at: string | null;
  locked_until: string | null;
  hard_locked: Generated<Flag>;
}

export interface RateLimitTable {
  key: string;
  window_start: string;
  /** When the window ends: the housekeeping sweep removes the row after that. */
  window_end: string | null;
  hits: number;
}

/** A staff member's role at the desk (ADR 072); one row per role held. */
export interface StaffRoleTable {
  user_id: string;
  role: string;
  granted_at: string;
}

export interface StaffSecondFactorTable {
  user_id: string;
  /** The TOTP secret, base32. */
  secret: string;
  enrolled_at: string;
  /** The time step of the last code accepted; only a later step's code is accepted next. */
  last_step: number;
}

export interface StaffRecoveryCodeTable {
  user_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface StaffEnrolmentTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The TOTP secret the enrolment page offers, until a code from it completes enrolment. */
  secret: string | null;
}

/** A reader's session raised to the desk by a second-factor code. */
export interface DeskSessionTable {
  session_hash: string;
  user_id: string;
  started_at: string;
  expires_at: string;
}

/** The desk's audit log (ADR 073): append-only, and free of foreign keys. */
export interface DeskAuditTable {
  id: string;
  at: string;
  /** The acting staff member's user id; null for the command line. */
  actor_id: string | null;
  /** Who acted, as they were then: a staff member's e-mail address, or "command line". */
  actor: string;
  action: string;
  /** What the action was about, e.g. "staff:ada@example.org". */
  subject: string;
  /** JSON of what changed, before and after; null where nothing was there. */
  before: string | null;
  after: string | null;
}

/** A staff API key for the Admin API (ADR 074): only its hash is stored, found by its public prefix. */
export interface DeskApiKeyTable {
  id: string;
  name: string;
  /** The key's public start, shown in the desk and used to find the row. */
  prefix: string;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  /** The roles the key acts with, comma-separated. */
  roles: string;
  created_at: string;
  /** Who made it, as the audit log names them. */
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

export interface ArticleReadDayTable {
  article_id: number;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  reads: number;
}

/**
 * A view that holds no rows (migration 058, ADR 094): inserting one records an article page's
 * reads in one statement, its trigger writing what the row's fields ask for.
 */
export interface ArticleReadTable {
  article_id: number;
  /** The UTC day, YYYY-MM-DD, of the popularity count and the wall view. */
  day: string;
  read_at: string;
  /** 1: one more read on Most Popular (`article_read_day`); 0: none. */
  popular: number;
  /** A signed-in reader: the article goes to the top of their history (`view_history`). */
  user_id: string | null;
  /** The wall met, its tag and the meter's key of who met it (`wall_view`); all null when none is counted. */
  wall: "registration" | "subscribe" | null;
  ab_tag: string | null;
  viewer: string | null;
}

export interface ShortLinkTable {
  code: string;
  /** A path on this site with its query, as a redirect takes it. */
  path: string;
  created_at: string;
}

export interface GeoCountryTable {
  address: string;
  /** ISO code, or null: the service knows none, or the lookup failed. */
  country: string | null;
  expires_at: string;
}

export interface PasswordResetTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface EmailChangeTable {
  token_hash: string;
  user_id: string;
  new_email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PrintSubscriberTable {
  account_number: string;
  email: string;
  first_name: string;
  last_name: string;
  source: string;
  subscription_code: string;
  active: Flag;
  access_start: string;
  access_end: string;
}

export interface RestrictedAddressTable {
  pattern: string;
  reason: string;
}

export interface MeterReadTable {
  meter_key: string;
  period: string;
  meter: "article" | "ascend";
  article_id: number;
  read_at: string;
  /** A guest read's network address (or IPv6 /64), for the per-address ceiling; null otherwise. */
  client_address: string | null;
}

export type SubscriptionStatus = "active" | "cancelled" | "restricted";

export interface SubscriptionTable {
  id: string;
  /** Null once its reader deleted their account: it stays, unlinked, for the invoices that bill it (ADR 089). */
  user_id: string | null;
  role_code: string;
  source: "web" | "print";
  reference: string;
  status: SubscriptionStatus;
  access_start: string;
  /** The end of the paid period: a renewing subscription renews when it has passed. */
  access_end: string;
  created_at: string;
  /** The plan a web subscription was bought as; null for print and for those from before billing. */
  plan_id: string | null;
  /** Null for a subscription that does not renew (print, or bought before billing). */
  billing_status: BillingStatus | null;
  /** The card on file at the provider, and what the subscriber sees of it. */
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  /** When the renewal first failed; null unless past_due. */
  past_due_since: string | null;
  /** When the "payment failed" mail for the current failure went. */
  failure_mailed_at: string | null;
  /** While a run sends that mail: until when no other run may (a claim that lapses was its killed process's). */
  failure_claimed_until: string | null;
  /** When the subscriber last cancelled, and the reason they chose (null when none). */
  cancelled_at: string | null;
  cancel_reason: string | null;
  /** When the "cancelled" or "ended" mail for the current billing_status went. */
  notice_mailed_at: string | null;
  /** While a run sends that mail: until when no other run may. */
  notice_claimed_until: string | null;
  /** While past_due: access lasts until then (BILLING_GRACE_DAYS after the first failure), and the plan ends when it passes. */
  grace_end: string | null;
  /** Declined charges for the current period: the renewal's, then each retry's. */
  failed_attempts: Generated<number>;
  /** While past_due: when the next retry is due; null when none is left before grace_end. */
  next_retry_at: string | null;
  /** A downgrade chosen for the next renewal: the renewal charges this plan and switches to it. */
  scheduled_plan_id: string | null;
  /** The idempotency key of an upgrade being charged: claimed before the charge, cleared when applied. */
  pending_change: string | null;
  /** The period end (an access_end) whose renewal reminder was sent: one reminder per period. */
  reminder_sent_for: string | null;
  /** The provider's subscription and customer when the provider renews it (Stripe Billing, ADR 067). */
  provider_subscription_id: string | null;
  provider_customer_id: string | null;
  /** When the last provider event (or our own call to the provider) that changed its state happened. */
  provider_state_at: string | null;
  /** Where the subscriber is billed, which the sales tax on each charge follows (ADR 070); null: none given, not taxed. */
  billing_country: string | null;
  billing_region: string | null;
}

/** Where a renewing subscription stands (ADR 066). */
export type BillingStatus = "active" | "past_due" | "cancel_at_period_end" | "ended";

export type CheckoutStatus = "created" | "activated" | "failed";

export interface SubscriptionCheckoutTable {
  id: string;
  /** Null once its reader deleted their account: a paid checkout stays, unlinked, in the publisher's figures (ADR 089). */
  user_id: string | null;
  plan_id: string;
  ab_tag: string;
  amount_cents: number;
  provider: string;
  provider_session_id: string | null;
  status: CheckoutStatus;
  created_at: string;
  activated_at: string | null;
  /** Issued with the checkout form: posting the form again finds this checkout. */
  idempotency_key: string | null;
  provider_checkout_url: string | null;
  /** The buyer's company and tax id, printed on the invoice. */
  company: string | null;
  tax_id: string | null;
  /** The billing address the tax was worked out for, and the tax quoted and charged with the price (ADR 070). */
  billing_country: string | null;
  billing_region: string | null;
  tax_cents: Generated<number>;
  tax_rate_bp: Generated<number>;
}

/** A provider's webhook event applied, recorded in the transaction that applied it (ADR 067). */
export interface PaymentEventTable {
  id: string;
  type: string;
  received_at: string;
}

export interface InvoiceSequenceTable {
  name: string;
  last_number: number;
}

export interface InvoiceTable {
  id: string;
  /** From invoice_sequence: gapless, taken in the transaction that writes the invoice. */
  number: number;
  subscription_id: string;
  /** Null once its reader deleted their account: the invoice stays, made out to `buyer_name` (ADR 089). */
  user_id: string | null;
  /** The name it is made out to, written when the account that named the buyer was deleted; null while it exists. */
  buyer_name: string | null;
  /** The payment it records: the checkout id, or a renewal's idempotency key. */
  payment_key: string;
  kind: "purchase" | "renewal" | "upgrade";
  plan_id: string;
  amount_cents: number;
  tax_cents: number;
  period_start: string;
  period_end: string;
  company: string | null;
  tax_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: string;
  receipt_sent_at: string | null;
  /** While a run mails the receipt: until when no other run may. */
  receipt_claimed_until: string | null;
  /** The rate tax_cents was charged at (basis points) and the address it was charged for; null address on invoices from before (ADR 070). */
  tax_rate_bp: number;
  billing_country: string | null;
  billing_region: string | null;
}

/** A card put on file through the provider's page: each session applies once, so a replayed return cannot bring back an older card. */
export interface CardChangeTable {
  session_id: string;
  subscription_id: string;
  payment_method_id: string;
  applied_at: string;
}

export interface SandboxPaymentTable {
  id: string;
  reference: string;
  description: string;
  amount_cents: number;
  customer_email: string;
  success_url: string;
  cancel_url: string;
  status: "open" | "paid" | "declined" | "expired";
  card_last4: string | null;
  created_at: string;
  paid_at: string | null;
  /** Whether paying keeps the card on file for later charges (a subscription's checkout). */
  save_card: Generated<Flag>;
  /** The card saved when this checkout was paid. */
  payment_method_id: string | null;
  /** "setup" saves a card and charges nothing (a card change), as Stripe's setup mode. */
  mode: Generated<"payment" | "setup">;
}

export interface SandboxPaymentMethodTable {
  id: string;
  customer_email: string;
  brand: string;
  last4: string;
  /** Accepted when saved, declined when charged later (the 0341 test card). */
  declines_off_session: Flag;
  created_at: string;
}

export interface SandboxChargeTable {
  id: string;
  idempotency_key: string;
  payment_method_id: string;
  amount_cents: number;
  status: "succeeded" | "declined";
  created_at: string;
}

export interface SandboxClockTable {
  name: string;
  offset_seconds: number;
}

export interface GiftAllowanceTable {
  user_id: string;
  period: string;
  used: number;
}

export interface GiftLinkTable {
  id: string;
  token_hash: string;
  user_id: string;
  article_id: number;
  created_at: string;
  revoked_at: string | null;
}

export interface AnnotationTable {
  id: string;
  user_id: string;
  article_id: number;
  paragraph: number;
  quote: string;
  note: string;
  created_at: string;
}

export interface DismissalTable {
  owner_key: string;
  item: string;
  dismissed_at: string;
}

/** What a library item, history entry or share points at. */
export type LibraryContentType = "article" | "video" | "podcast";

export interface LibraryFolderTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  slug: string;
  description: string;
  read_only: Flag;
  created_at: string;
}

export interface LibraryItemTable {
  id: string;
  user_id: string;
  content_type: LibraryContentType;
  content_id: number;
  read_only: Flag;
  saved_at: string;
}

export interface LibraryItemFolderTable {
  item_id: string;
  folder_id: string;
  added_at: string;
}

export interface ViewHistoryTable {
  user_id: string;
  content_type: LibraryContentType;
  content_id: number;
  viewed_at: string;
}

export interface ShareHistoryTable {
  id: string;
  user_id: string;
  content_type: LibraryContentType;
  content_id: number;
  provider: "facebook" | "twitter" | "linkedin" | "email";
  recipients: number;
  shared_at: string;
}

export interface FollowTable {
  user_id: string;
  kind: "topic" | "newsletter" | "campaign";
  target: string;
  created_at: string;
}

export interface FollowingSeenTable {
  user_id: string;
  seen_at: string;
}

export interface CartTable {
  id: string;
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CartLineTable {
  id: string;
  cart_id: string;
  availability_id: number;
  kind: CartLineKind;
  quantity: number;
  referral: string | null;
  added_at: string;
}

/** "purchase": paid through the payment provider; "voucher": redeemed at no charge. */
export type OrderKind = "purchase" | "voucher";
export type OrderStatus = "pending_payment" | "paid" | "cancelled";

export interface StoreOrderTable {
  id: string;
  number: string;
  user_id: string | null;
  email: string;
  idempotency_key: string;
  /** Lets a guest open their own order page (it travels in the order link). */
  access_token: string;
  kind: OrderKind;
  status: OrderStatus;
  ship_first_name: string | null;
  ship_last_name: string | null;
  ship_address1: string | null;
  ship_address2: string | null;
  ship_city: string | null;
  ship_state: string | null;
  ship_postal_code: string | null;
  ship_country_code: string | null;
  shipping_method: string | null;
  promo_code: string | null;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  shipping_cents: number;
  total_cents: number;
  provider: string | null;
  provider_session_id: string | null;
  created_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
  cart_id: string | null;
  provider_checkout_url: string | null;
  confirmation_sent_at: string | null;
  /** What has been refunded (or is being refunded), never more than total_cents (ADR 086). */
  refunded_cents: Generated<number>;
  /** The first dispatch: a paid order can be cancelled only before it. */
  shipped_at: string | null;
  /** Every line fulfilled (digital lines at payment, shipped lines when dispatched). */
  fulfilled_at: string | null;
  /** Every shipment delivered. */
  delivered_at: string | null;
  /** The provider's payment a refund went to (Stripe's PaymentIntent), to match its refund events. */
  provider_payment_id: string | null;
  /** The buyer's name, written when their account was deleted (the order stays, unlinked, its e-mail erased; ADR 089). */
  buyer_name: string | null;
  /** What the checkout left to be charged on pre-ordered lines' availability dates (ADR 092). */
  deferred_cents: Generated<number>;
  /** The provider's customer the checkout kept the card with for those charges; null once deleted there (ADR 092). */
  provider_customer_id: string | null;
}

export interface StoreOrderLineTable {
  order_id: string;
  position: number;
  product_id: number;
  availability_id: number;
  title: string;
  product_type: string;
  format: string;
  code: string;
  line_type: LineType;
  kind: CartLineKind;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
  available_date: string | null;
  shipment_id: string | null;
  fulfilled_at: string | null;
  refunded_quantity: Generated<number>;
  /** When the last of its quantity was refunded: its downloads closed then. */
  refunded_at: string | null;
  /** A pre-order charged on its availability date (ADR 092): its share of the order's total; null when charged with the order. */
  charge_cents: number | null;
  charge_id: string | null;
  charged_at: string | null;
  /** The card was declined on the availability date: the line waits, and staff and the buyer are told. */
  charge_failed_at: string | null;
  /** A pre-order whose date came: its downloads open, or it is ready to ship. */
  released_at: string | null;
  /** The buyer's notice of a released digital line or a declined charge, sent once. */
  notice_sent_at: string | null;
  notice_claimed_until: string | null;
}

/** A dispatch of some of an order's shipped lines (ADR 086). */
export interface StoreShipmentTable {
  id: string;
  order_id: string;
  carrier: string;
  tracking_number: string;
  /** From the desk's form: the same form sent twice is one shipment. */
  idempotency_key: string;
  shipped_at: string;
  shipped_by: string;
  delivered_at: string | null;
  mail_sent_at: string | null;
  mail_claimed_until: string | null;
}

/** A refund the sandbox provider made: at once, never more than the payment took. */
export interface SandboxRefundTable {
  id: string;
  idempotency_key: string;
  payment_id: string;
  /** A charge made later to the card the payment saved (a pre-order's, ADR 092), given back instead of the payment. */
  charge_id: string | null;
  amount_cents: number;
  reference: string;
  created_at: string;
}

export type RefundKind = "lines" | "order" | "cancel" | "late-payment";
export type RefundStatus = "pending" | "succeeded" | "failed";

/** A refund of an order, whole or of chosen lines, through the payments provider (ADR 086). */
export interface StoreRefundTable {
  id: string;
  order_id: string;
  idempotency_key: string;
  kind: RefundKind;
  amount_cents: number;
  reason: string;
  status: RefundStatus;
  /** Who asked, as the audit log names them. */
  requested_by: string;
  created_at: string;
  provider: string;
  provider_refund_id: string | null;
  succeeded_at: string | null;
  failure: string | null;
  /** From invoice_sequence "credit-note", taken when the refund succeeds. */
  credit_note_number: number | null;
  mail_sent_at: string | null;
  mail_claimed_until: string | null;
}

export interface StoreRefundLineTable {
  refund_id: string;
  position: number;
  quantity: number;
}

/** What a refund gives back of one payment: the order's checkout, or a pre-order's own payment (ADR 092). */
export interface StoreRefundPaymentTable {
  refund_id: string;
  /** The checkout session the order was paid through, or the pre-order's own payment. */
  paid_to: string;
  amount_cents: number;
  /** The provider's payment, whose refund events confirm this part; null until the provider answered for a checkout's. */
  payment_id: string | null;
  provider_refund_id: string | null;
  succeeded_at: string | null;
}

/** A buyer's payment of a pre-order whose card was declined on its date, one row per attempt (ADR 092). */
export interface StorePreorderPaymentTable {
  order_id: string;
  position: number;
  attempt: number;
  provider: string;
  amount_cents: number;
  /** The provider's checkout session for this attempt; null until the provider answered. */
  session_id: string | null;
  checkout_url: string | null;
  opened_at: string;
  /** Closed at the provider, so that the next attempt can open: it can no longer be paid. */
  closed_at: string | null;
  paid_at: string | null;
}

export interface SavedAddressTable {
  id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  address1: string;
  address2: string | null;
  city: string;
  state: string | null;
  postal_code: string;
  country_code: string;
  created_at: string;
}

export interface CheckoutDraftTable {
  cart_id: string;
  email: string | null;
  address_id: string | null;
  first_name: string | null;
  last_name: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country_code: string | null;
  save_address: Flag;
  shipping_method: string | null;
  promo_code: string | null;
  confirmed_at: string | null;
  updated_at: string;
}

export interface PromoCodeTable {
  code: string;
  description: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  product_type: string | null;
  starts_at: string;
  expires_at: string | null;
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  /** How many orders may use it in all; null: no limit. */
  max_uses: number | null;
  /** How many of one reader's (or one address's) orders may; null: no limit. */
  max_uses_per_reader: number | null;
  /** Set: the code works no more, whatever its dates. */
  disabled_at: string | null;
}

/** A promo code for these products only (with its product type, if it has one, too). */
export interface PromoCodeProductTable {
  code: string;
  product_id: number;
}

export interface VoucherTable {
  code: string;
  availability_id: number;
  /** Before ADR 091 a voucher's one redemption; no longer read (voucher_use holds every use). */
  redeemed_by: string | null;
  redeemed_at: string | null;
  order_id: string | null;
  version: Generated<number>;
  updated_at: string | null;
  updated_by_name: string | null;
  max_uses: Generated<number>;
  max_uses_per_reader: number | null;
  starts_at: string | null;
  /** The last moment it works (the end of its last day). */
  ends_at: string | null;
  disabled_at: string | null;
}

/** An order's use of a promo code or a voucher (ADR 091); released_at: given back (cancelled, refunded in full). */
export interface OfferUseTable {
  order_id: string;
  code: string;
  user_id: string | null;
  /** The buyer's address, lowercased. */
  email: string;
  used_at: string;
  released_at: string | null;
}

export type ImageFormat = "jpeg" | "png" | "webp";

/** An uploaded image (ADR 077), as decoded and turned upright. */
export interface ImageTable {
  id: string;
  /** Who uploaded it, as the audit log names them. */
  uploaded_by: string;
  uploaded_at: string;
  width: number;
  height: number;
  format: ImageFormat;
  /** The upload's size. */
  bytes: number;
  alt: string | null;
  /** SHA-256 of the upload, hex: the same file uploaded again is the same image. */
  sha256: string;
}

/** One width of an uploaded image in one format; its bytes in `data`, or in the bucket under `storage_key`. */
export interface ImageVariantTable {
  image_id: string;
  width: number;
  height: number;
  format: ImageVariantFormat;
  bytes: number;
  data: Buffer | null;
  storage_key: string;
}

/** An uploaded media file (ADR 083): its type as its bytes showed it, kept in chunks. */
export interface MediaFileTable {
  id: string;
  kind: MediaKind;
  /** The type it is served with, from what was decoded: never the client's word. */
  content_type: string;
  extension: string;
  bytes: number;
  /** Every chunk but the last holds this many bytes. */
  chunk_bytes: number;
  /** SHA-256 of the whole file, hex; null until complete. */
  sha256: string | null;
  /** Read from the file where its format says it (an MP3's frames). */
  duration_seconds: number | null;
  uploaded_by: string;
  uploaded_at: string;
  /** 1 once every chunk is written; nothing refers to a file before. */
  complete: Flag;
}

/** One chunk of a media file: its bytes in `data`, or in the bucket under `storage_key`. */
export interface MediaChunkTable {
  file_id: string;
  seq: number;
  bytes: number;
  data: Buffer | null;
  storage_key: string;
}

/** The mail adapter's log (ADR 087): one row per recipient of each message sent, without its body. */
export interface MailLogTable {
  id: string;
  recipient: string;
  subject: string;
  sent_at: string;
  message_id: string;
}

/** A reader met a wall under an A/B tag on a UTC day (ADR 090): one row however often they met it. */
export interface WallViewTable {
  day: string;
  wall: "registration" | "subscribe";
  ab_tag: string;
  /** The meter's key: `v:` and a guest's visitor id, or `u:` and an account's id. */
  viewer: string;
}

/** An account opened from the registration wall's form, with the wall's A/B tag (ADR 090); no account id. */
export interface WallRegistrationTable {
  id: string;
  ab_tag: string;
  registered_at: string;
}

/** A closed UTC day the reports have rolled up (ADR 090), with its sales: orders paid and their totals, refunds that succeeded and their amounts. */
export interface ReportDayTable {
  day: string;
  orders: number;
  total_cents: number;
  refunds: number;
  refunds_cents: number;
  rolled_at: string;
}

/** A rolled-up day's sales and refunds of one product (ADR 090), in whole cents as the report rounds them. */
export interface ReportSalesDayTable {
  day: string;
  product_id: number;
  orders: number;
  units: number;
  gross_cents: number;
  refunded_units: number;
  refunds_cents: number;
}

/** A rolled-up day's registrations from the wall and activated checkouts of one A/B tag (ADR 090). */
export interface ReportFunnelDayTable {
  day: string;
  ab_tag: string;
  registrations: number;
  subscriptions: number;
}

/** A customer-service form's key, once its action has been taken (ADR 087). */
export interface ServiceRequestTable {
  key: string;
  action: string;
  user_id: string;
  created_at: string;
}

/** A case study's download access, moved past its six months at the desk (ADR 087). */
export interface DownloadExtensionTable {
  order_id: string;
  position: number;
  expires_at: string;
  updated_at: string;
}

export interface DB {
  topic: TopicTable;
  topic_former_slug: TopicFormerSlugTable;
  author: AuthorTable;
  series: SeriesTable;
  /** A view: the published rows of article_record (ADR 076). */
  article: ArticleTable;
  article_record: ArticleRecordTable;
  article_revision: ArticleRevisionTable;
  article_redirect: ArticleRedirectTable;
  content_generation: ContentGenerationTable;
  article_author: ArticleAuthorTable;
  article_topic: ArticleTopicTable;
  stream_entry: StreamEntryTable;
  published_article_tally: PublishedArticleTallyTable;
  magazine_issue: MagazineIssueTable;
  issue_feature: IssueFeatureTable;
  issue_former_code: IssueFormerCodeTable;
  product: ProductTable;
  product_availability: ProductAvailabilityTable;
  product_section: ProductSectionTable;
  product_article: ProductArticleTable;
  product_companion: ProductCompanionTable;
  video: VideoTable;
  playlist: PlaylistTable;
  playlist_video: PlaylistVideoTable;
  podcast_series: PodcastSeriesTable;
  podcast_episode: PodcastEpisodeTable;
  newsletter: NewsletterTable;
  newsletter_issue: NewsletterIssueTable;
  newsletter_issue_article: NewsletterIssueArticleTable;
  newsletter_delivery: NewsletterDeliveryTable;
  marketing_campaign: MarketingCampaignTable;
  reading_list: ReadingListTable;
  reading_list_item: ReadingListItemTable;
  home_curation: HomeCurationTable;
  home_pick: HomePickTable;
  course: CourseTable;
  seed_state: SeedStateTable;
  app_user: AppUserTable;
  user_session: UserSessionTable;
  login_failure: LoginFailureTable;
  staff_role: StaffRoleTable;
  staff_second_factor: StaffSecondFactorTable;
  staff_recovery_code: StaffRecoveryCodeTable;
  staff_enrolment: StaffEnrolmentTable;
  desk_session: DeskSessionTable;
  desk_audit: DeskAuditTable;
  desk_api_key: DeskApiKeyTable;
  image: ImageTable;
  image_variant: ImageVariantTable;
  media_file: MediaFileTable;
  media_chunk: MediaChunkTable;
  rate_limit: RateLimitTable;
  geo_country: GeoCountryTable;
  short_link: ShortLinkTable;
  article_read_day: ArticleReadDayTable;
  /** A view: one inserted row is one article page's reads (ADR 094). */
  article_read: ArticleReadTable;
  password_reset: PasswordResetTable;
  email_change: EmailChangeTable;
  print_subscriber: PrintSubscriberTable;
  restricted_address: RestrictedAddressTable;
  meter_read: MeterReadTable;
  subscription: SubscriptionTable;
  subscription_checkout: SubscriptionCheckoutTable;
  sandbox_payment: SandboxPaymentTable;
  sandbox_payment_method: SandboxPaymentMethodTable;
  sandbox_charge: SandboxChargeTable;
  sandbox_refund: SandboxRefundTable;
  sandbox_clock: SandboxClockTable;
  invoice: InvoiceTable;
  card_change: CardChangeTable;
  invoice_sequence: InvoiceSequenceTable;
  payment_event: PaymentEventTable;
  gift_allowance: GiftAllowanceTable;
  gift_link: GiftLinkTable;
  annotation: AnnotationTable;
  dismissal: DismissalTable;
  library_folder: LibraryFolderTable;
  library_item: LibraryItemTable;
  library_item_folder: LibraryItemFolderTable;
  view_history: ViewHistoryTable;
  share_history: ShareHistoryTable;
  follow: FollowTable;
  following_seen: FollowingSeenTable;
  cart: CartTable;
  cart_line: CartLineTable;
  store_order: StoreOrderTable;
  store_order_line: StoreOrderLineTable;
  store_shipment: StoreShipmentTable;
  store_refund: StoreRefundTable;
  store_refund_line: StoreRefundLineTable;
  store_refund_payment: StoreRefundPaymentTable;
  store_preorder_payment: StorePreorderPaymentTable;
  saved_address: SavedAddressTable;
  checkout_draft: CheckoutDraftTable;
  promo_code: PromoCodeTable;
  promo_code_product: PromoCodeProductTable;
  promo_use: OfferUseTable;
  voucher: VoucherTable;
  voucher_use: OfferUseTable;
  price_change: PriceChangeTable;
  search_document: SearchDocumentTable;
  search_document_topic: SearchDocumentTopicTable;
  search_match: SearchMatchTable;
  mail_log: MailLogTable;
  service_request: ServiceRequestTable;
  download_extension: DownloadExtensionTable;
  wall_view: WallViewTable;
  wall_registration: WallRegistrationTable;
  report_day: ReportDayTable;
  report_sales_day: ReportSalesDayTable;
  report_funnel_day: ReportFunnelDayTable;
}
