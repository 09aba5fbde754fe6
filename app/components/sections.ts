/** The site's sections, in the order the header's nav, the menu and the footer list them. */
export const SECTIONS = [
  { to: "/the-latest", label: "The Latest" },
  { to: "/topics", label: "Topics" },
  { to: "/magazine", label: "Magazine" },
  { to: "/video", label: "Video" },
  { to: "/podcasts", label: "Podcasts" },
  { to: "/big-ideas", label: "Big Ideas" },
  { to: "/ascend", label: "Ascend" },
  { to: "/visual-library", label: "Visual Library" },
  { to: "/webinars", label: "Webinars" },
  { to: "/hbr-analytic-services", label: "Analytic Services" },
  { to: "/store", label: "Store" },
] as const;
