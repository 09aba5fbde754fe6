import type { Migration, MigrationProvider } from "kysely";
import * as m001 from "./001-content";
import * as m002 from "./002-accounts";
import * as m003 from "./003-paywall-and-subscriptions";
import * as m004 from "./004-library-and-follows";
import * as m005 from "./005-store";
import * as m006 from "./006-checkout";
import * as m007 from "./007-order-payment-window";
import * as m008 from "./008-account-email-change";
import * as m009 from "./009-one-purchase-and-housekeeping";
import * as m010 from "./010-meter-address";
import * as m011 from "./011-search";
import * as m012 from "./012-search-gin-pending-list";
import * as m013 from "./013-search-words-inline";
import * as m014 from "./014-search-slices";
import * as m015 from "./015-search-topic-ids";
import * as m016 from "./016-geo-country";
import * as m017 from "./017-article-reads";
import * as m018 from "./018-product-texts";
import * as m019 from "./019-short-links";
import * as m020 from "./020-search-match";
import * as m021 from "./021-search-word-pairs";
import * as m022 from "./022-topic-subjects";
import * as m023 from "./023-product-companions";
import * as m024 from "./024-courses";
import * as m025 from "./025-billing";
import * as m026 from "./026-cancellation";
import * as m027 from "./027-dunning";
import * as m028 from "./028-renewal-reminders";
import * as m029 from "./029-stripe-billing";
import * as m030 from "./030-subscription-tax";
import * as m032 from "./032-desk-staff";
import * as m033 from "./033-desk-audit";
import * as m034 from "./034-mail-claims";
import * as m035 from "./035-desk-api-keys";
import * as m036 from "./036-article-states";
import * as m037 from "./037-images";
import * as m038 from "./038-catalogue-edits";
import * as m039 from "./039-desk-curation";
import * as m040 from "./040-hero-images";
import * as m043 from "./043-newsletter-issues";
import * as m044 from "./044-revision-autosaves";
import * as m045 from "./045-magazine-desk";
import * as m046 from "./046-media-files";
import * as m047 from "./047-order-fulfilment-and-refunds";
import * as m048 from "./048-customer-service";
import * as m049 from "./049-readers-privacy";
import * as m050 from "./050-reports";
import * as m052 from "./052-catalogue-and-offers";
import * as m054 from "./054-report-rollup";
import * as m055 from "./055-pre-orders";
import * as m056 from "./056-pre-order-payments";
import * as m057 from "./057-order-customers";
import * as m058 from "./058-article-read";
import * as m059 from "./059-article-topic-order";
import * as m060 from "./060-published-article-tally";
import * as m061 from "./061-product-result-covers";

// Migrations are listed here (not read from disk) so they are bundled with the server build.
const migrations: Record<string, Migration> = {
  "001-content": m001,
  "002-accounts": m002,
  "003-paywall-and-subscriptions": m003,
  "004-library-and-follows": m004,
  "005-store": m005,
  "006-checkout": m006,
  "007-order-payment-window": m007,
  "008-account-email-change": m008,
  "009-one-purchase-and-housekeeping": m009,
  "010-meter-address": m010,
  "011-search": m011,
  "012-search-gin-pending-list": m012,
  "013-search-words-inline": m013,
  "014-search-slices": m014,
  "015-search-topic-ids": m015,
  "016-geo-country": m016,
  "017-article-reads": m017,
  "018-product-texts": m018,
  "019-short-links": m019,
  "020-search-match": m020,
  "021-search-word-pairs": m021,
  "022-topic-subjects": m022,
  "023-product-companions": m023,
  "024-courses": m024,
  "025-billing": m025,
  "026-cancellation": m026,
  "027-dunning": m027,
  "028-renewal-reminders": m028,
  "029-stripe-billing": m029,
  "030-subscription-tax": m030,
  "032-desk-staff": m032,
  "033-desk-audit": m033,
  "034-mail-claims": m034,
  "035-desk-api-keys": m035,
  "036-article-states": m036,
  "037-images": m037,
  "038-catalogue-edits": m038,
  "039-desk-curation": m039,
  "040-hero-images": m040,
  "043-newsletter-issues": m043,
  "044-revision-autosaves": m044,
  "045-magazine-desk": m045,
  "046-media-files": m046,
  "047-order-fulfilment-and-refunds": m047,
  "048-customer-service": m048,
  "049-readers-privacy": m049,
  "050-reports": m050,
  "052-catalogue-and-offers": m052,
  "054-report-rollup": m054,
  "055-pre-orders": m055,
  "056-pre-order-payments": m056,
  "057-order-customers": m057,
  "058-article-read": m058,
  "059-article-topic-order": m059,
  "060-published-article-tally": m060,
  "061-product-result-covers": m061,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
