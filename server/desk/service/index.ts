// Customer service at the desk (ADR 087): finding readers, a reader's page, and the actions on them.
export { findReaders, READERS_PAGE_SIZE, QUERY_MAX, type FoundReader, type ReaderSearch } from "./find";
export { readerOverview, type ReaderOverview, type ReaderSubscription, type ReaderOrder } from "./reader";
export {
  unlockAccount,
  restrictAccount,
  unrestrictAccount,
  prepareResend,
  linkPrint,
  unlinkPrint,
  extendSubscription,
  grantComp,
  extendCaseStudy,
  type ServiceInput,
  type ServiceOutcome,
  type ServiceRefusal,
  type Resend,
  type ResendKind,
} from "./actions";
export { sendServiceNotice, type ServiceNotice } from "./notices";
export * from "./rules";
