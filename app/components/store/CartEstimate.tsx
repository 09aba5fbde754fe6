import { getFormProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import type { Destination } from "~/server/store/pricing";
import type { estimateSchema } from "~/app/lib/store/cart-forms";
import type { CartAction } from "~/app/routes/shopping-cart";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { Shell, TextField } from "~/app/components/forms/fields";
import { useHydrated } from "~/app/components/useHydrated";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as css from "./cart.css";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";

const loadEstimateSchema: SchemaLoader<typeof estimateSchema> = () =>
  import("~/app/lib/store/cart-forms").then((forms) => forms.estimateSchema);

type Choice = { code: string; name: string };

/**
 * Country, state or province and postal code for an estimate of tax and shipping. Without JS
 * the state list holds both the US states and the Canadian provinces; with JS only the chosen
 * country's, and the form posts through a fetcher.
 */
export function CartEstimate({
  destination,
  countries,
  regions,
  lastResult,
}: {
  destination: Destination | null;
  countries: Choice[];
  regions: { US: Choice[]; CA: Choice[] };
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const fetcher = useFetcher<CartAction>({ key: "cart-estimate" });
  const hydrated = useHydrated();
  const fetched = fetcher.data && "result" in fetcher.data ? fetcher.data.result : undefined;
  const { form, fields, summary, submitDisabled } = useSpecForm("cart-estimate", loadEstimateSchema, fetched ?? lastResult, {
    country: destination?.country ?? "US",
    region: destination?.region ?? "",
    postalCode: destination?.postalCode ?? "",
  });
  const country = fields.country.value ?? destination?.country ?? "US";
  const groups = [
    { label: "United States", code: "US", options: regions.US },
    { label: "Canada", code: "CA", options: regions.CA },
  ].filter((g) => !hydrated || g.code === country);
  const { key: countryKey, ...countryProps } = getSelectProps(fields.country);
  const { key: regionKey, ...regionProps } = getSelectProps(fields.region, {
    ariaDescribedBy: hydrated ? undefined : fields.region.descriptionId,
  });
  return (
    <section aria-labelledby="estimate-title" className={css.estimate}>
      <h2 id="estimate-title">Estimate tax and shipping</h2>
      <ErrorSummary items={summary} />
      <fetcher.Form method="post" action="/shopping-cart" {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="intent" value="estimate" />
        {hydrated ? <ViaFetcherField /> : null}
        <Shell meta={fields.country} label="Country">
          <select key={countryKey} {...countryProps} className={forms.input} autoComplete="country">
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </Shell>
        {groups.length > 0 ? (
          <Shell meta={fields.region} label="State or province" hint={hydrated ? undefined : "For the United States and Canada"}>
            <select key={regionKey} {...regionProps} className={forms.input} autoComplete="address-level1">
              <option value="">Select</option>
              {groups.map((g) => (
                <optgroup key={g.code} label={g.label}>
                  {g.options.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </Shell>
        ) : null}
        <TextField meta={fields.postalCode} label="ZIP or postal code" autoComplete="postal-code" />
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton} disabled={submitDisabled || fetcher.state !== "idle"}>
            Estimate
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}
