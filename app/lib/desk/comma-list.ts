/** A comma-separated list as the article form writes it ("a, b, c"); blanks dropped. */
export const commaList = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
