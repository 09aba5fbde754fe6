// In-process render cost, without HTTP: npm run build && npx tsx bench/render-inprocess.ts [path ...]
// Prints ms per request for the document and for its single-fetch data request (loaders only),
// so the cost of React rendering and of the loaders can be told apart.
import { createRequestHandler, type ServerBuild } from "@remix-run/node";

const paths = process.argv.slice(2);
const build = (await import(`${process.cwd()}/build/server/index.js`)) as unknown as ServerBuild;
const handler = createRequestHandler(build, "production");

async function time(url: string, n: number): Promise<number> {
  for (let i = 0; i < 30; i++) await (await handler(new Request(url))).text();
  const start = performance.now();
  for (let i = 0; i < n; i++) await (await handler(new Request(url))).text();
  return (performance.now() - start) / n;
}

for (const path of paths.length ? paths : ["/", "/the-latest"]) {
  const page = await time(`http://localhost${path}`, 300);
  const [pathname, search = ""] = path.split("?");
  const dataUrl = `http://localhost${pathname === "/" ? "/_root" : pathname}.data${search ? `?${search}` : ""}`;
  const data = await time(dataUrl, 300);
  console.log(`${path}: document ${page.toFixed(2)} ms, data request ${data.toFixed(2)} ms`);
}
