// Magazine issues at the desk (issue 38): their fields, their contents in order and who changed
// them; the cover is an uploaded image, set through server/desk/images.ts.
export {
  codeTaken,
  createIssue,
  getDeskIssue,
  issueYears,
  listDeskIssues,
  monthTaken,
  saveIssue,
  type DeskIssue,
  type DeskIssueFeature,
  type DeskIssueSummary,
  type IssueChange,
  type IssueResult,
} from "./issues";
export { noSuchArticle, resolveFeatures } from "./features";
