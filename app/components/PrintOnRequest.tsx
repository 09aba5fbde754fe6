import { useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Any page opened with a printMe query value prints itself once it has loaded (spec: order
 * page with ?printMe=1). Without JS nothing runs and the page is simply printable.
 */
export function PrintOnRequest() {
  const [params] = useSearchParams();
  const wanted = params.has("printMe");
  const printed = useRef(false);
  useEffect(() => {
    if (!wanted || printed.current) return;
    printed.current = true;
    window.print();
  }, [wanted]);
  return null;
}
