// Magazine issues at the desk (issue 38): their fields, their contents in order and who changed
// them; the cover is an uploaded image, set through server/desk/images.ts.
export {
  createIssue,
  getDeskIssue,
  issueYears,
  listDeskIssues,
  saveIssue,
  type DeskIssue,
  type DeskIssueSummary,
  type IssueChange,
  type IssueResult,
} from "./issues";
export { resolveFeatures } from "./features";
