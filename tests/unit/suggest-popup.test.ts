import { describe, expect, it } from "vitest";
import {
  announcement,
  emptyPopup,
  suggestPopup,
  type SuggestAction,
  type SuggestOption,
  type SuggestPopup,
} from "~/app/lib/search/suggest-popup";

const option = (label: string): SuggestOption => ({ label, type: "Article", value: `/${label}` });
const topics = [option("t1")];
const titles = [option("a1"), option("a2")];

const run = (actions: SuggestAction[], from: SuggestPopup = emptyPopup) => actions.reduce(suggestPopup, from);
const answer = (show = true, t = topics, a = titles): SuggestAction => ({ type: "answer", groups: [t, a], show });
const down: SuggestAction = { type: "move", step: 1 };
const up: SuggestAction = { type: "move", step: -1 };

describe("suggestPopup", () => {
  it("opens on an answer with nothing highlighted, unless the field may not show it", () => {
    expect(run([answer()])).toMatchObject({ open: true, active: -1 });
    expect(run([answer(false)])).toMatchObject({ open: false, active: -1, answered: true });
    expect(run([answer(true, [], [])])).toMatchObject({ open: false, answered: true });
  });

  it("moves the highlight through topics then titles, wrapping both ways", () => {
    expect(run([answer(), down]).active).toBe(0);
    expect(run([answer(), down, down, down]).active).toBe(2);
    expect(run([answer(), down, down, down, down]).active).toBe(0);
    expect(run([answer(), up]).active).toBe(2);
    expect(run([answer(), down, up]).active).toBe(2);
  });

  it("reopens a closed list on an arrow, highlighting the first or the last option", () => {
    const closed = run([answer(), down, { type: "close" }]);
    expect(closed).toMatchObject({ open: false, active: -1 });
    expect(run([down], closed)).toMatchObject({ open: true, active: 0 });
    expect(run([up], closed)).toMatchObject({ open: true, active: 2 });
    expect(run([down])).toBe(emptyPopup);
  });

  it("keeps the highlight on the same option when a newer answer still offers it", () => {
    const onA2 = run([answer(), down, down, down]);
    expect(run([answer(true, [], [option("a2"), option("b")])], onA2).active).toBe(0);
    expect(run([answer(true, [], [option("b")])], onA2).active).toBe(-1);
  });

  it("drops the highlight when the caret moves, and everything when the text is cleared", () => {
    expect(run([answer(), down, { type: "unhighlight" }])).toMatchObject({ open: true, active: -1 });
    expect(run([answer(), down, { type: "clear" }])).toBe(emptyPopup);
  });

  it("announces the count while open, and an empty answer", () => {
    expect(announcement(emptyPopup)).toBe("");
    expect(announcement(run([answer()]))).toBe("3 suggestions available. Use the up and down arrow keys to choose.");
    expect(announcement(run([answer(true, [], [option("x")])]))).toBe("1 suggestion available. Use the up and down arrow keys to choose.");
    expect(announcement(run([answer(), { type: "close" }]))).toBe("");
    expect(announcement(run([answer(true, [], [])]))).toBe("No suggestions");
  });
});
