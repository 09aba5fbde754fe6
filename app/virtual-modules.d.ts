declare module "virtual:site-stylesheet" {
  /** The site stylesheet's address in a production server build; null elsewhere. */
  const href: string | null;
  export default href;
}
