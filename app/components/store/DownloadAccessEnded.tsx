import { CUSTOMER_SERVICE, SITE_NAME } from "~/app/lib/forms/cross-site";

/**
 * The page a download link answers with (status 410) once a case study's six months of access
 * are over, or its line was refunded. It is a whole document of its own: the download route is a
 * resource route.
 */
export function DownloadAccessEnded({
  title,
  endedOn,
  orderHref,
  refunded = false,
}: {
  title: string;
  endedOn: string;
  orderHref: string;
  refunded?: boolean;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`Access has ended | ${SITE_NAME}`}</title>
      </head>
      <body>
        <main>
          {refunded ? (
            <>
              <h1>This download has closed</h1>
              <p>
                “{title}” was refunded on {endedOn}, so it can no longer be downloaded.
              </p>
            </>
          ) : (
            <>
              <h1>Your access to this case study has ended</h1>
              <p>
                Case studies can be downloaded for six months after purchase. Your access to “{title}” ended on {endedOn}, so it can no
                longer be downloaded.
              </p>
            </>
          )}
          <p>
            To read it again, buy it once more from <a href="/store">our store</a>. Your order is still listed on{" "}
            <a href={orderHref}>its order page</a>.
          </p>
          <p>
            Questions? Customer Service is available 24/7 at {CUSTOMER_SERVICE.phoneUsCanada} (US and Canada),{" "}
            {CUSTOMER_SERVICE.phoneInternational} (international) or{" "}
            <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>.
          </p>
        </main>
      </body>
    </html>
  );
}
