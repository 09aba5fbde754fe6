// Readers' own privacy rights (ADR 089): their data, as a file and a page, and deleting their account.
export {
  exportPersonalData,
  personalDataJson,
  EXPORT_SECTIONS,
  EXPORTED_TABLES,
  NOT_EXPORTED,
  type PersonalData,
  type ExportValue,
  type ExportRecord,
  type ExportSubject,
} from "./export";
export {
  deleteAccount,
  deletionBlocker,
  ERASED_EMAIL,
  type DeletedAccount,
  type DeletionBlocker,
  type DeletionOutcome,
  type ProviderOfRecord,
} from "./erase";
export { accountDeletedMessage, sendAccountDeleted } from "./mail";
