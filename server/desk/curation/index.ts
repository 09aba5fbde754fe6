// The desk's curation (issue 38): the home page's lead and pinned stories, and reading lists.
// Every change takes the database, the actor and the moment, names the version it read, and
// writes its audit row and counts the content generation up in its own transaction.
export { articlesInOrder, findArticle, recentArticles, type CuratedArticle } from "./articles";
export { chooseHomeStories, homeCuration, HOME_PICKS, type CurationResult, type HomeCuration } from "./home";
export {
  createReadingList,
  getDeskReadingList,
  listDeskReadingLists,
  saveReadingList,
  type DeskReadingList,
  type DeskReadingListSummary,
  type ReadingListChange,
  type ReadingListResult,
} from "./reading-lists";
export { applyMove, listMove, type ListMove } from "./ordering";
