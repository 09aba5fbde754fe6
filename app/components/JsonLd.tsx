import { scriptJson } from "~/app/lib/http/script-json";
import { useNonce } from "~/app/lib/http/nonce";

/** A page's structured data (schema.org, as JSON-LD), allowed by the document's CSP nonce. */
export function JsonLd({ data }: { data: object }) {
  const nonce = useNonce();
  return <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: scriptJson(data) }} />;
}
